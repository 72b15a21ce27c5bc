import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier

/// Strings the rules match, group and look up compare by their bytes, as the references' Rust `String`s do
/// (docs/FORMAT.md, "Strings compare by bytes"): Swift's `String` equality is canonical equivalence, under
/// which `é` precomposed equals `e` with a combining acute and the Kelvin sign equals `K`.
@Suite("Strings compare by bytes")
struct WireStringTests {
    /// Three pairs that `String` takes for equal and the bytes do not.
    static let equivalentPairs: [(String, String)] = [
        ("enrollment:caf\u{E9}", "enrollment:cafe\u{301}"),
        ("onym:component:\u{212A}elvin", "onym:component:Kelvin"),
        ("case\u{37E}1", "case;1"),
    ]

    @Test func equivalentSpellingsAreTwoStrings() {
        for (left, right) in Self.equivalentPairs {
            #expect(left == right, "Swift's String equality is the hole this type closes")
            #expect(WireString(left) != WireString(right))
            #expect(WireString(left) != right)
            #expect(Set([WireString(left), WireString(right)]).count == 2)
            #expect((WireString(left) < WireString(right)) == left.utf8.lexicographicallyPrecedes(right.utf8))
            #expect(WireString(left) == WireString(String(decoding: Array(left.utf8), as: UTF8.self)))
        }
    }

    @Test func prefixesAreBytes() {
        // Rust's starts_with: the prefix's bytes, even where a combining mark joins its last character.
        #expect(WireString("onym:component:\u{301}x").hasBytePrefix("onym:component:"))
        #expect(!"onym:component:\u{301}x".hasPrefix("onym:component:"), "String.hasPrefix compares characters")
        #expect(!WireString("onym:componen").hasBytePrefix("onym:component:"))
    }

    // MARK: - The rules that use them

    static let authority = FixtureAuthority(classes: FixtureClass.referenceClasses)
    static let interface = FixtureInterface()
    static let user = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x05))!

    static func mandate(binding: String, classes: [String] = ["csam"]) throws -> Mandate {
        try Mandate(
            json: FixtureRecords.mandate(
                user: user, interface: interface, authority: authority, classes: classes, deviceBinding: binding,
                acceptedAt: "2026-08-08T00:00:00Z"))
    }

    /// A verdict on `mandate`'s binding spelled `binding`, really signed by the authority.
    static func verdict(on mandate: Mandate, binding: String) throws -> Verdict {
        try Verdict(
            json: FixtureRecords.verdict(
                .dismiss, caseId: "case-1", mandate: mandate, authority: authority, classId: "csam",
                decidedAt: "2026-08-18T00:00:00Z", edit: { $0.set("deviceBinding", .string(binding)) }))
    }

    @Test func aVerdictOnAnEquivalentBindingIsNotTheMandates() throws {
        let (precomposed, decomposed) = Self.equivalentPairs[0]
        let mandate = try Self.mandate(binding: precomposed)
        let now = Instant.parse("2026-08-18T00:00:00Z")!
        let same = VerdictValidator.validate(
            try Self.verdict(on: mandate, binding: precomposed), mandate: mandate, manifest: Self.authority.manifest(),
            now: now)
        #expect((try? same.get()) == .execute)
        let other = VerdictValidator.validate(
            try Self.verdict(on: mandate, binding: decomposed), mandate: mandate, manifest: Self.authority.manifest(),
            now: now)
        guard case .failure(let rejection) = other else {
            Issue.record(
                "a verdict on \(Array(decomposed.utf8)) was taken for the mandate's \(Array(precomposed.utf8))")
            return
        }
        #expect(rejection.rule == .deviceBindingMismatch)
    }

    @Test func equivalentClassesAreTwoClasses() throws {
        // Distinct by bytes, as serde_json reads them: not a repeated class.
        let mandate = try Self.mandate(binding: "enrollment:1", classes: ["caf\u{E9}", "cafe\u{301}"])
        #expect(mandate.classes.count == 2)
        #expect(throws: LedgerFormatError.self) {
            try Self.mandate(binding: "enrollment:1", classes: ["caf\u{E9}", "caf\u{E9}"])
        }
    }

    @Test func aComponentIdIsItsPrefixsBytesAndMore() throws {
        let reader = FieldReader(JSONObject([("authority", .string("onym:component:\u{301}x"))]))
        #expect(try reader.componentId("authority") == WireString("onym:component:\u{301}x"))
        let outcome = JSONObject([
            ("recordedAt", .string("2026-08-18T00:00:00Z")), ("deviceBinding", .string("enrollment:1")),
            ("authorizedBy", .string("reconciliation")), ("caseOpen", .bool(false)), ("banned", .bool(false)),
            ("outcome", .string("failed: \u{301}503")),
        ])
        #expect(try WriteRequest(json: outcome).outcome == "failed: \u{301}503")
    }

    @Test func aSummaryBeginningWithGitsPatchDividerIsRefusedWhateverFollowsIt() {
        let trailers = LedgerTrailers(logSize: 0, logHead: WriteLogEntry.genesis).text
        // git reads bytes: "---" then a combining mark still begins with its patch divider.
        for summary in ["--- a summary", "---\u{301} a summary"] {
            guard case .failure = LedgerTrailers.parse(message: summary + "\n\n" + trailers) else {
                Issue.record("accepted the summary \(Array(summary.utf8))")
                continue
            }
        }
        #expect((try? LedgerTrailers.parse(message: "-- a summary\n\n" + trailers).get()) != nil)
    }

    @Test func equivalentBindingsKeepTheirOwnRecordsAndBytes() {
        let (precomposed, decomposed) = Self.equivalentPairs[0]
        var table = BindingTable()
        table.set(WireString(precomposed), BindingRecord(lastWritten: DeviceBits(caseOpen: true, banned: false)))
        table.set(WireString(decomposed), BindingRecord(lastWritten: DeviceBits(caseOpen: false, banned: true)))
        #expect(table[WireString(precomposed)]?.lastWritten == DeviceBits(caseOpen: true, banned: false))
        #expect(table[WireString(decomposed)]?.lastWritten == DeviceBits(caseOpen: false, banned: true))

        // A binding's facts keep the bytes their verdicts carry: the authority kept for one is not handed to
        // an equivalent spelling.
        let (kelvin, plain) = Self.equivalentPairs[1]
        var record = BindingRecord()
        var shared = SharedStrings()
        for (number, authority) in [kelvin, plain].enumerated() {
            record.receive(
                VerdictFact(
                    ref: ContentAddress(bytes: [UInt8](repeating: UInt8(number), count: 32)), caseId: "c",
                    authority: WireString(authority), deviceBinding: WireString(precomposed), disposition: .dismiss,
                    decidedAt: Instant(seconds: 1), executeAfter: nil, banExpires: nil, receivedAt: Instant(seconds: 2),
                    decisionDeadline: nil, externalAppellate: nil, accusedKeys: []),
                shared: &shared)
        }
        #expect(record.facts.map { Array($0.authority.text.utf8) } == [Array(kelvin.utf8), Array(plain.utf8)])
    }
}
