import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat

/// Every kind gives its reading, and `textconv` shows it after the record's JSON — `label: value` lines
/// and tables in aligned columns — so `git log -p` on a ledger reads as the records' facts. The facts
/// expected are read from the record's own JSON by Foundation's JSON reader, not by LedgerFormat.
@Suite("Readings: every kind reads, and textconv shows it")
struct RecordReadingTextTests {
    /// Runs the built `onym-ledger textconv` on `bytes`.
    static func textconv(_ bytes: [UInt8]) throws -> String {
        let scratch = ScratchDirectory()
        let file = scratch.path("record.json")
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let result = CLI.run(["textconv", file])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// The lines after the pretty-printed JSON (which ends with a `}` line of its own): the reading.
    static func readingLines(_ output: String) -> [String] {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let end = lines.firstIndex(of: "}") else { return [] }
        return Array(lines[(end + 1)...])
    }

    /// The values a record's reading must state, taken from its JSON as Foundation parses it.
    static func expectedValues(_ kind: String, _ json: [String: Any]) throws -> [String] {
        func strings(_ fields: [String]) -> [String] {
            fields.flatMap { field -> [String] in
                switch json[field] {
                case let text as String: [text]
                case let texts as [String]: texts
                default: []
                }
            }
        }
        func yes(_ field: String) throws -> String { try #require(json[field] as? Bool) ? "yes" : "no" }
        switch kind {
        case "profile":
            let marks = try #require(json["markBindings"] as? [String: String]).map { "\($0.key) → \($0.value)" }
            let bindings = try #require(json["bindings"] as? [String: Any]).keys
            return strings(["profileId", "platform", "caseNoticeSchema", "specification"]) + marks + bindings
        case "manifest":
            return strings([
                "componentId", "seat", "operator", "moderationProfileId", "validUntil", "appellate", "newHolderAppeal",
            ])
        case "mandate":
            return strings(["user", "interface", "authority", "manifestHash", "classes", "deviceBinding", "acceptedAt"])
        case "verdict":
            let marks = try #require(json["marks"] as? [String: Bool]).map { "\($0.key) \($0.value ? "on" : "off")" }
            return strings([
                "caseId", "authority", "mandateRef", "accusedKeys", "deviceBinding", "classId", "disposition",
                "reasoning", "decidedAt", "appealDeadline", "executeAfter", "banExpires", "decisionDeadline",
                "appealUrl", "newHolderUrl", "authorityContact",
            ]) + marks + [try yes("final")]
        case "receipt":
            return strings(["verdictRef", "status", "receivedAt"])
        case "status-attempt":
            return strings(["interface", "authority", "attemptedAt", "answeredAt"]) + [try yes("answered")]
        case "compromise-report":
            return strings(["authority", "manifestHash", "compromisedAt", "reportedAt"])
        case "revocation":
            return strings(["interface", "authority", "trigger", "effectiveAt", "determinedAt", "evidence"])
        case "grant":
            // Onym-wire §3.12: "grant lifetime 30 days" — redeemable until 30 × 86 400 s after issuedAt.
            let formatter = ISO8601DateFormatter()
            let issuedAt = try #require(json["issuedAt"] as? String)
            let issued = try #require(formatter.date(from: issuedAt))
            let until = formatter.string(from: issued.addingTimeInterval(30 * 86_400))
            return strings(["grantType", "caseId", "grantee", "authority", "issuedAt"]) + [until, "30 days"]
        case "redemption":
            return strings([
                "grantRef", "grantType", "caseId", "mandateRef", "fromBinding", "toBinding", "redeemedAt",
            ])
        default:
            Issue.record("no expected values for the kind \(kind)")
            return []
        }
    }

    /// textconv shows, after the JSON, the record's reading: a title, then one `  label: value` line a fact
    /// (a value of several lines continuing on deeper-indented lines), and every value the record states.
    @Test(arguments: ReadingFixtures.all)
    func textconvShowsTheRecordsFacts(_ fixture: ReadingFixtures.Fixture) throws {
        let output = try Self.textconv(fixture.bytes)
        #expect(output.hasPrefix("# onym-ledger: \(fixture.kind.kindName)\n"), "\(output.prefix(200))")
        let reading = Self.readingLines(output)
        #expect(reading.first == "", "a blank line parts the JSON from the reading: \(reading.prefix(2))")
        let title = try #require(reading.dropFirst().first)
        #expect(!title.isEmpty && !title.hasPrefix(" "), "the reading's title: \(title)")
        let facts = reading.dropFirst(2).prefix { !$0.isEmpty }
        #expect(!facts.isEmpty, "\(fixture.name): no facts")
        for line in facts {
            let labelled = line.firstMatch(of: /^  [^ :][^:]*: \S/) != nil
            #expect(labelled || line.hasPrefix("   "), "\(fixture.name): not a `label: value` line: \(line)")
        }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(fixture.bytes)) as? [String: Any])
        let expected = try Self.expectedValues(fixture.kind.kindName, json)
        #expect(!expected.isEmpty)
        for value in expected {
            #expect(reading.contains { $0.contains(value) }, "\(fixture.name): the reading does not show \(value)")
        }
        #expect(try Self.textconv(fixture.bytes) == output, "textconv is stable")
    }

    /// A manifest's violation classes are a table: a caption, a header row and a row a class, each cell
    /// starting where its header does, the cells being the class's terms from the manifest's JSON.
    @Test func aManifestsClassesAreAnAlignedTable() throws {
        let bytes = ReadingFixtures.authority.manifestBytes
        let reading = Self.readingLines(try Self.textconv(bytes))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let classes = try #require(json["violationClasses"] as? [[String: String]])
        let headers = ["Class", "Response window", "Decision deadline", "Appeal window", "Ban term", "Appeal effect"]
        let headerIndex = try #require(reading.firstIndex { $0.contains("Class") && $0.contains("Appeal effect") })
        let header = reading[headerIndex]
        #expect(
            reading[headerIndex - 1].trimmingCharacters(in: .whitespaces) == "Violation classes the users consented to")
        let offsets = try headers.map { try #require(header.range(of: $0)?.lowerBound) }
        #expect(offsets == offsets.sorted())
        func shown(_ duration: String) -> String {
            duration == "permanent" ? duration : String(duration.dropFirst().dropLast()) + " days"
        }
        for (row, item) in zip(reading[(headerIndex + 1)...], classes) {
            let cells = [
                item["classId"]!, shown(item["responseWindow"]!), shown(item["decisionDeadline"]!),
                shown(item["appealWindow"]!), shown(item["banTerm"]!), item["appealEffect"]!,
            ]
            for (offset, cell) in zip(offsets, cells) {
                let column = header.distance(from: header.startIndex, to: offset)
                let rest = row.dropFirst(column)
                #expect(rest.hasPrefix(cell), "the cell \(cell) does not start under its header: \(row)")
            }
        }
    }

    /// Ledger text reaches the reviewer's terminal through `git log -p`: its control characters and its
    /// bidirectional-formatting characters are shown escaped, never sent raw (the JSON above it escapes
    /// its control characters likewise).
    @Test func ledgerTextCannotRewriteTheTerminal() throws {
        let mandate = try Mandate(json: ReadingFixtures.mandateJSON)
        let verdict = FixtureRecords.verdict(
            .openCase, caseId: "case-1", mandate: mandate, authority: ReadingFixtures.authority, classId: "csam",
            decidedAt: "2026-08-05T12:00:00Z", reasoning: "first\nsecond\u{1B}[2J\u{202E}txt.exe")
        let reading = Self.readingLines(try Self.textconv(CanonicalJSON.encode(verdict)))
        let text = reading.joined(separator: "\n")
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
        #expect(text.contains(#"first\nsecond\u{1b}[2J\u{202e}txt.exe"#), "\(text)")
    }

    /// The `#` header lines name a JSON object's keys: a key may hold any character, so it is escaped like
    /// ledger text, and a file cannot forge a header line (here, one claiming a record kind it is not).
    @Test func aKeyCannotForgeAHeaderLine() throws {
        let forged = #"{"note\n# onym-ledger: verdict\n# content address 00":"2026-08-05T12:00:00Z"}"#
        let shown = try Self.textconv(Array(forged.utf8))
        let headers = shown.split(separator: "\n").filter { $0.hasPrefix("#") }
        #expect(!headers.contains { $0.hasPrefix("# onym-ledger: verdict") }, "\(shown)")
        #expect(
            headers.contains(#"# note\n# onym-ledger: verdict\n# content address 00: 2026-08-05T12:00:00Z"#), "\(shown)"
        )
    }
}
