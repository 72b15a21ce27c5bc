import LedgerTestSupport
import Testing

@testable import LedgerFollow
@testable import LedgerFormat
import LedgerReport
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

    /// Equality, order, hashing and prefixes agree with the UTF-8 arrays on random strings built from the
    /// characters that make Swift's equality differ from bytes: combining marks, precomposed letters, the
    /// singletons that normalize to ASCII, CR and LF, and plain ASCII.
    @Test func everyComparisonIsTheBytesComparison() {
        let pieces: [String] = [
            "a", "e", "K", ";", "`", " ", "-", "+", ":", "\r", "\n", "\u{E9}", "\u{301}", "\u{212A}", "\u{37E}",
            "\u{1FEF}", "\u{2126}", "\u{3A9}", "\u{1E9B}\u{323}", "\u{FB01}", "\u{0}", "\u{10FFFF}", "𝄞",
        ]
        var generator = SystemRandomNumberGenerator()
        func random() -> String {
            (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined()
        }
        for _ in 0..<20_000 {
            let (left, right) = (random(), random())
            let (leftBytes, rightBytes) = (Array(left.utf8), Array(right.utf8))
            #expect((WireString(left) == WireString(right)) == (leftBytes == rightBytes))
            #expect(left.hasSameBytes(as: right) == (leftBytes == rightBytes))
            #expect((WireString(left) < WireString(right)) == leftBytes.lexicographicallyPrecedes(rightBytes))
            #expect(left.hasBytePrefix(right) == leftBytes.starts(with: rightBytes))
            if leftBytes == rightBytes { #expect(WireString(left).hashValue == WireString(right).hashValue) }
        }
    }

    @Test func prefixesAreBytes() {
        // Rust's starts_with: the prefix's bytes, even where a combining mark joins its last character.
        #expect(WireString("onym:component:\u{301}x").hasBytePrefix("onym:component:"))
        #expect(!"onym:component:\u{301}x".hasPrefix("onym:component:"), "String.hasPrefix compares characters")
        #expect(!WireString("onym:componen").hasBytePrefix("onym:component:"))
        // A log origin may not begin an SSHSIG blob, whatever follows the six bytes.
        #expect(!LedgerDescriptor.isUsableOrigin("SSHSIG\u{301}x"))
        #expect(LedgerDescriptor.isUsableOrigin("example.org/log"))
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

    /// The writer, through the CLI, on a real ledger: a mandate names the binding with é precomposed; a write
    /// to the decomposed spelling names a device no mandate names, and a verdict on that spelling does not
    /// bind the mandate. Both are refused and the ledger is left as it was; the same batches with the mandate's
    /// own bytes are recorded.
    @Test func theWriterRefusesAnEquivalentSpellingOfAMandatedBinding() throws {
        let (precomposed, decomposed) = Self.equivalentPairs[0]
        let scenario = LedgerScenario()
        let mandateJSON = scenario.mandate(binding: precomposed, classes: ["csam"])
        let mandate = try Mandate(json: mandateJSON)
        scenario.append([scenario.file(mandateJSON)], at: "2026-08-09T00:00:00Z")
        let tip = scenario.tip
        let verdict = FixtureRecords.verdict(
            .dismiss, caseId: "c", mandate: mandate, authority: scenario.authority, classId: "csam",
            decidedAt: "2026-08-10T00:00:00Z", edit: { $0.set("deviceBinding", .string(decomposed)) })
        let refusals: [(String, String)] = [
            (
                scenario.writeRequests([("2026-08-10T00:00:00Z", decomposed, "reconciliation", false, false, "ok")]),
                "MandateScopePolicy: a write to device binding"
            ),
            (
                scenario.file(FixtureRecords.submission(verdict, authority: scenario.authority)),
                "deviceBindingMismatch"
            ),
        ]
        for (file, rule) in refusals {
            let result = CLI.run(
                ["append", scenario.ledger, "--signing-key", scenario.signer, "--at", "2026-08-12T00:00:00Z", file])
            #expect(result.status == 65, "\(rule): \(result.stdout)")
            #expect(result.stderr.contains(rule), "\(result.stderr)")
            #expect(scenario.tip == tip)
        }
        scenario.append(
            [scenario.writeRequests([("2026-08-10T00:00:00Z", precomposed, "reconciliation", false, false, "ok")])],
            at: "2026-08-12T00:00:00Z")
        #expect(scenario.tip != tip)
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

    @Test func aCommitMessageIsReadOnBytes() {
        let trailers = LedgerTrailers(logSize: 0, logHead: WriteLogEntry.genesis).text
        func refused(_ message: String) -> Bool {
            if case .failure = LedgerTrailers.parse(message: message) { return true }
            return false
        }
        // CR LF is one Swift character, so a CR in the summary had passed for no CR and no second line.
        #expect(refused("line 1\r\nline 2\n\n" + trailers))
        // A Kelvin sign is not the K of the trailer's name, nor a letter of a key.
        #expect(refused("append\n\n" + trailers + "Onym-Ledger-Idempotency-\u{212A}ey: k1\n"))
        #expect(refused("append\n\n" + trailers + "Onym-Ledger-Idempotency-Key: \u{212A}1\n"))
        #expect(!LedgerTrailers.isValidIdempotencyKey("\u{212A}1"))
        let keyed = LedgerTrailers.parse(message: "append\n\n" + trailers + "Onym-Ledger-Idempotency-Key: K1\n")
        #expect((try? keyed.get())?.idempotencyKey == "K1")
    }

    @Test func noteNamesAndTextsAreBytes() throws {
        let secret = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x21))!
        let key = try #require(NoteKey(name: "example.org/K", type: NoteKey.ed25519, publicKey: secret.publicKey))
        let text = "example.org/K\n1\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n"
        // The key's signature and key ID over the same text, on a line named with a Kelvin sign: not the key's line.
        let line = SignedNote.Signature(
            name: "example.org/\u{212A}", keyID: key.keyID, payload: secret.signature(for: Array(text.utf8)))
        let note = SignedNote(text: text, signatures: [line])
        #expect(note.signatures(by: key).isEmpty)
        #expect(!note.isSigned(by: key))
        #expect(!"example.org/\u{212A}".hasSameBytes(as: "example.org/K"))
        let signed = SignedNote(
            text: text, signatures: [try #require(SignedNote.sign(text, name: key.name, with: secret))])
        #expect(signed.isSigned(by: key))
    }

    @Test func signedNotesAreReadOnBytes() throws {
        let secret = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x21))!
        let key = try #require(NoteKey(name: "example.org/K", type: NoteKey.ed25519, publicKey: secret.publicKey))
        let text = "example.org/K\n1\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n"
        // Another signer whose name begins with a combining mark: three fields, as Go splits the line, and a
        // line a reader of the log key skips.
        let other = SignedNote.Signature(name: "\u{301}w", keyID: 7, payload: [UInt8](repeating: 1, count: 64))
        let own = try #require(SignedNote.sign(text, name: key.name, with: secret))
        let parsed = try SignedNote(parsing: SignedNote(text: text, signatures: [own, other]).formatted)
        #expect(parsed.signatures.count == 2)
        #expect(parsed.isSigned(by: key))
        // A `+` followed by a combining mark is still a `+`, which no key name holds.
        #expect(!NoteKey.isValidName("a+\u{301}b"))
        // Keys whose names are equivalent but not the same bytes are two keys.
        let kelvin = try #require(
            NoteKey(name: "example.org/\u{212A}", type: NoteKey.ed25519, publicKey: secret.publicKey))
        #expect(kelvin != key)
        #expect(Set([kelvin, key]).count == 2)
    }

    @Test func writeLogEntriesAreEqualByTheirBytes() throws {
        func entry(_ outcome: String) throws -> WriteLogEntry {
            try WriteLogEntry(
                sequence: 1, recordedAt: "2026-08-18T00:00:00Z", deviceBinding: "enrollment:1",
                authorizedBy: "reconciliation", caseOpen: false, banned: false, outcome: outcome,
                previousHash: WriteLogEntry.genesis)
        }
        let stored = try entry("failed: caf\u{E9}")
        #expect(try stored == entry("failed: caf\u{E9}"))
        // The stored entry's fields and hashes, with the outcome spelled decomposed: another entry (one whose
        // hash no longer holds), not the stored one a second time.
        var json = stored.json
        json.set("outcome", .string("failed: cafe\u{301}"))
        #expect(try WriteLogEntry(json: json) != stored)
    }

    @Test func epochsSplitOnBytes() throws {
        // Rust's split(',') of MODERATION_INTERFACE_KEY_EPOCHS: the comma before a combining mark still splits.
        let epochs = try InterfaceCountersigner.epochs("onym:component:a=2,\u{301}b=1").get()
        #expect(epochs[WireString("onym:component:a")] == 2)
        #expect(epochs[WireString("\u{301}b")] == 1)
    }

    @Test func theDSAVocabularyIsMatchedByBytes() throws {
        var config = try CanonicalJSON.parse(Array(DSAConfig.defaultText.utf8))
        guard case .object(var classes)? = config["classes"], case .object(var csam)? = classes["csam"] else {
            Issue.record("the default configuration has no csam class")
            return
        }
        csam.set("category_specification", .array([.string("\u{212A}EYWORD_CHILD_SEXUAL_ABUSE_MATERIAL")]))
        classes.set("csam", .object(csam))
        config.set("classes", .object(classes))
        #expect(throws: LedgerFormatError.self) { try DSAConfig(json: config) }
    }

    @Test func theReplayStateKeepsEquivalentSpellingsApart() throws {
        let (precomposed, decomposed) = Self.equivalentPairs[0]
        func identity(_ user: String) -> [BindingIdentities.Identity] {
            [BindingIdentities.Identity(user: WireString(user), acceptedAt: Instant(seconds: 1))]
        }
        var maps = ReplayMaps()
        maps.identities = BindingIdentities(shared: [
            WireString(precomposed): identity("onym:key:" + String(repeating: "ab", count: 32)),
            WireString(decomposed): identity("onym:key:" + String(repeating: "cd", count: 32)),
        ])
        let tip = ObjectID(hexString: String(repeating: "1", count: 40))!
        let read = try #require(ReplayMaps(smallFile: maps.smallFileBytes(tip: tip), tip: tip))
        #expect(read.identities.shared.count == 2)
        #expect(read == maps)
        #expect(
            read.identities.shared.keys.map { Array($0.text.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
                == [Array(precomposed.utf8), Array(decomposed.utf8)].sorted { $0.lexicographicallyPrecedes($1) })
    }

    @Test func aDescriptorKeepsEachAuthoritysKeysByItsBytes() throws {
        let (kelvin, plain) = Self.equivalentPairs[1]
        let keys = [FixtureSeed.repeated(0x31), FixtureSeed.repeated(0x32)].map {
            Ed25519.PrivateKey(seed: $0)!.publicKey
        }
        let descriptor = LedgerDescriptor(
            ledgerId: "l", interface: "onym:component:i",
            authorityKeys: [
                WireString(kelvin): [.init(epoch: 1, key: keys[0])], WireString(plain): [.init(epoch: 1, key: keys[1])],
            ])
        // Two members of `authorities`, distinct by their bytes as the parser holds them, are two authorities.
        let read = try LedgerDescriptor(json: try CanonicalJSON.parse(CanonicalJSON.encode(descriptor.json)))
        #expect(read.authorityKeys.count == 2)
        #expect(read.countersigningKeys(for: WireString(kelvin)) == [keys[0]])
        #expect(read.countersigningKeys(for: WireString(plain)) == [keys[1]])
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
