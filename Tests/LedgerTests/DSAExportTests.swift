import Foundation
import Testing

@testable import LedgerFormat
@testable import LedgerReport

/// `export dsa` writes statements of reasons the DSA Transparency Database would accept, one per restriction
/// that took effect — checked by an independent script (`Tests/Interop/dsacheck.py`: Python `jsonschema`
/// against the schema written from the database's rules, and each statement against the ban verdicts read
/// from the ledger with stock git).
@Suite("DSA export: statements of reasons")
struct DSAExportTests {
    static let schema = ExampleLedgerTests.root.appendingPathComponent("schemas/dsa-statement-of-reasons.schema.json")
    static let checker = ExampleLedgerTests.root.appendingPathComponent("Tests/Interop/dsacheck.py")

    @Test func theExampleExportsValidCompleteStatements() throws {
        let scratch = ScratchDirectory()
        let ledger = ExampleLedgerTests.copy(scratch)
        let state = scratch.path("state")
        let jsonl = scratch.path("statements.jsonl")
        let csv = scratch.path("statements.csv")
        let first = CLI.run([
            "export", "dsa", ledger, "--trust", ExampleLedgerTests.trust, "--state", state, "--out", jsonl,
        ])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(CLI.run(["export", "dsa", ledger, "--state", state, "--out", csv]).status == 0)
        let check = runProcess("python3", [Self.checker.path, ledger, jsonl, csv, Self.schema.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("received bans) valid"), "\(check.stdout)")
        // One statement per restriction that took effect: no reversal filed as a restriction, and not Lena's
        // late ban (decided after its case's deadline: the case defaulted, the gate says clear).
        let exported = try String(contentsOfFile: jsonl, encoding: .utf8)
        #expect(!exported.contains("Reversal:"))
        #expect(!exported.contains("onym-3247a60034b3"))
        let lena = "enrollment:479b2513-a644-4cf4-8e01-44bad8a2cceb"
        let gate = CLI.run([
            "gate", ledger, "--binding", lena, "--at", "2026-08-15T00:00:00Z", "--state", state, "--json",
        ])
        #expect(!gate.stdout.contains(#""banned""#) || gate.stdout.contains(#""clear""#), "\(gate.stdout)")
        let lines = exported.split(separator: "\n")
        #expect(lines.count == 57, "\(lines.count) statements")
        // Nadia's ban, moved to her new phone's binding by a recovery, is one restriction that goes on; Omar's
        // permanent ban ends at the instant his unban grant was redeemed.
        let nadia = lines.filter { $0.contains("in case n-1 ") }
        #expect(nadia.count == 1 && nadia.first?.contains("and ended on") == false, "\(nadia)")
        let omar = try #require(lines.first { $0.contains("in case o-1 ") })
        #expect(omar.contains(#""end_date_account_restriction":"2026-09-21""#), "\(omar)")
        #expect(omar.contains("and ended on 2026-09-21T10:00:00Z (the authority's unban grant "), "\(omar)")
        // A restriction that ended early carries the day it really ended, and says why.
        #expect(exported.contains("and ended on"))
        // Exported twice, the same bytes (a stable export a vendor can diff).
        let again = scratch.path("again.jsonl")
        #expect(CLI.run(["export", "dsa", ledger, "--state", state, "--out", again]).status == 0)
        #expect(FileManager.default.contents(atPath: again) == FileManager.default.contents(atPath: jsonl))
    }

    /// Every statement files a restriction the ledger's own gate enforced: at the instant the statement says it
    /// took effect, `gate` answers banned by that very verdict, and at the instant it says the restriction
    /// ended, by anything but that verdict; `application_date` and `end_date_account_restriction` are those
    /// instants' days. The verdict's binding is read from the stored bytes with stock git, not from the export.
    @Test func everyStatementIsARestrictionTheGateEnforced() throws {
        let scratch = ScratchDirectory()
        let ledger = ExampleLedgerTests.copy(scratch)
        let state = scratch.path("state")
        let jsonl = scratch.path("statements.jsonl")
        let export = CLI.run([
            "export", "dsa", ledger, "--trust", ExampleLedgerTests.trust, "--state", state, "--out", jsonl,
        ])
        #expect(export.status == 0, "\(export.stderr)")
        func object(_ text: some StringProtocol) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }
        func gate(_ binding: String, at instant: Substring) throws -> [String: Any] {
            let answer = CLI.run([
                "gate", ledger, "--binding", binding, "--at", String(instant), "--state", state, "--json",
            ])
            #expect(answer.status == 0, "\(answer.stderr)")
            return try object(answer.stdout)
        }
        let statements = try String(contentsOfFile: jsonl, encoding: .utf8).split(separator: "\n")
        #expect(statements.count > 40)
        for line in statements {
            let statement = try object(line)
            let facts = try #require(statement["decision_facts"] as? String)
            let verdict = try #require((statement["puid"] as? String)?.dropFirst("onym-".count))
            let path = try #require(facts.firstMatch(of: /at (batches\/\S+\.json)/)?.1)
            let stored = runProcess("git", ["-C", ledger, "show", "HEAD:" + path]).stdout
            let binding = try #require(try object(stored)["deviceBinding"] as? String)
            let start = try #require(facts.firstMatch(of: /took effect on (\S+?Z)/)?.1)
            #expect(statement["application_date"] as? String == String(start.prefix(10)), "\(verdict)")
            let inForce = try gate(binding, at: start)
            #expect((inForce["result"] as? [String: Any])?["banned"] != nil, "\(verdict) not banned at \(start)")
            #expect(inForce["authorizedBy"] as? String == String(verdict), "\(verdict) at \(start)")
            if let end = facts.firstMatch(of: /ended on (\S+?Z)/)?.1 {
                #expect(statement["end_date_account_restriction"] as? String == String(end.prefix(10)))
                let over = try gate(binding, at: end)
                #expect(over["authorizedBy"] as? String != String(verdict), "\(verdict) still in force at \(end)")
            }
        }
    }

    /// The checker itself refuses what the database would refuse (so its "ok" means something).
    @Test func theCheckerRefusesAStatementTheDatabaseWouldRefuse() throws {
        let scratch = ScratchDirectory()
        let ledger = ExampleLedgerTests.copy(scratch)
        let jsonl = scratch.path("statements.jsonl")
        let csv = scratch.path("statements.csv")
        #expect(CLI.run(["export", "dsa", ledger, "--trust", ExampleLedgerTests.trust, "--out", jsonl]).status == 0)
        #expect(CLI.run(["export", "dsa", ledger, "--trust", ExampleLedgerTests.trust, "--out", csv]).status == 0)
        let text = try String(contentsOfFile: jsonl, encoding: .utf8)
        for (broken, why) in [
            (text.replacingOccurrences(of: "\"puid\":\"onym-", with: "\"puid\":\"onym:"), "does not match"),
            (
                text.replacingOccurrences(of: "STATEMENT_CATEGORY_VIOLENCE", with: "STATEMENT_CATEGORY_HATE"),
                "is not one of"
            ),
            (
                text.replacingOccurrences(
                    of: "\"KEYWORD_INCITEMENT_VIOLENCE_HATRED\"", with: "\"KEYWORD_ADULT_SEXUAL_MATERIAL\""),
                "is not one of"
            ),
            (
                text.replacingOccurrences(
                    of: "\"application_date\":\"2026-06-06\"", with: "\"application_date\":\"2026-01-02\""),
                "before the ban could take effect"
            ),
        ] {
            try Data(broken.utf8).write(to: URL(fileURLWithPath: jsonl))
            let check = runProcess("python3", [Self.checker.path, ledger, jsonl, csv, Self.schema.path])
            #expect(check.status == 1, "\(why): \(check.stdout)")
            #expect(check.stdout.contains(why), "\(check.stdout)")
        }
    }

    @Test func aConfigValueTheDatabaseWouldRefuseIsNamed() throws {
        let scratch = ScratchDirectory()
        let ledger = ExampleLedgerTests.copy(scratch)
        let printed = CLI.run(["export", "dsa", "--print-config"])
        #expect(printed.status == 0)
        let config = scratch.path("config.json")
        try Data(printed.stdout.replacingOccurrences(of: "STATEMENT_CATEGORY_VIOLENCE", with: "VIOLENCE").utf8)
            .write(to: URL(fileURLWithPath: config))
        let out = scratch.path("out.jsonl")
        let result = CLI.run([
            "export", "dsa", ledger, "--trust", ExampleLedgerTests.trust, "--config", config, "--out", out,
        ])
        #expect(result.status == 65)
        #expect(result.stderr.contains("classes.credible-violence.category"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // An unknown key (a typo) is refused too.
        try Data(printed.stdout.replacingOccurrences(of: "\"account_type\"", with: "\"acount_type\"").utf8)
            .write(to: URL(fileURLWithPath: config))
        let typo = CLI.run([
            "export", "dsa", ledger, "--trust", ExampleLedgerTests.trust, "--config", config, "--out", out,
        ])
        #expect(typo.status == 65, "\(typo.stderr)")
        // A keyword under another category of the database's taxonomy mis-files the statement: refused, named.
        try Data(
            printed.stdout.replacingOccurrences(
                of: "\"KEYWORD_INCITEMENT_VIOLENCE_HATRED\"", with: "\"KEYWORD_ADULT_SEXUAL_MATERIAL\""
            ).utf8
        ).write(to: URL(fileURLWithPath: config))
        let pair = CLI.run([
            "export", "dsa", ledger, "--trust", ExampleLedgerTests.trust, "--config", config, "--out", out,
        ])
        #expect(pair.status == 65, "\(pair.stderr)")
        #expect(
            pair.stderr.contains("classes.credible-violence.category_specification")
                && pair.stderr.contains("does not specify STATEMENT_CATEGORY_VIOLENCE"), "\(pair.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// The exporter's vocabulary and the schema state the database's allowed values twice; they must agree.
    @Test func theVocabularyIsTheSchemas() throws {
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schema)) as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: [String: Any]])
        func enumeration(_ field: String, items: Bool = false) -> Set<String> {
            let node = items ? properties[field]?["items"] as? [String: Any] : properties[field]
            return Set((node?["enum"] as? [Any] ?? []).compactMap { $0 as? String })
        }
        #expect(enumeration("category") == Set(DSAVocabulary.categories))
        #expect(enumeration("category_specification", items: true) == Set(DSAVocabulary.keywords))
        #expect(enumeration("decision_ground") == Set(DSAVocabulary.decisionGrounds))
        #expect(enumeration("account_type") == Set(DSAVocabulary.accountTypes))
        #expect(enumeration("source_type") == Set(DSAVocabulary.sourceTypes))
        #expect(enumeration("automated_detection") == Set(DSAVocabulary.automatedDetections))
        #expect(enumeration("automated_decision") == Set(DSAVocabulary.automatedDecisions))
        #expect(enumeration("content_type", items: true) == Set(DSAVocabulary.contentTypes))
        #expect(enumeration("territorial_scope", items: true) == Set(DSAVocabulary.countries))
        // Each category's keywords: the schema's conditions and the exporter's table agree.
        var pairs: [String: Set<String>] = [:]
        for case let rule as [String: Any] in schema["allOf"] as? [Any] ?? [] {
            let category = ((rule["if"] as? [String: Any])?["properties"] as? [String: Any])?["category"]
            guard let name = (category as? [String: Any])?["const"] as? String else { continue }
            let then = (rule["then"] as? [String: Any])?["properties"] as? [String: Any]
            let items = (then?["category_specification"] as? [String: Any])?["items"] as? [String: Any]
            pairs[name] = Set((items?["enum"] as? [Any] ?? []).compactMap { $0 as? String })
        }
        #expect(pairs == DSAVocabulary.specifications.mapValues(Set.init))
        #expect(Set(DSAVocabulary.specifications.keys) == Set(DSAVocabulary.categories))
        // The default config parses and every value in it is the database's.
        let standard = DSAConfig.standard
        #expect(standard.classes.count == 4)
    }

    @Test(arguments: [
        ("2026-06-06T08:00:00Z", "2026-06-06"), ("1999-12-31T23:59:59Z", "2000-01-01"),
        ("2040-01-01T00:00:00Z", "2038-01-01"),
    ])
    func datesAreUTCAndInTheDatabasesRange(instant: String, date: String) throws {
        #expect(DSAExport.date(try Instant.parse(instant, field: "t")) == date)
    }

    /// The database counts code points: "é" as one, "e" with a combining accent as two.
    @Test(arguments: ["\u{E9}", "e\u{301}"])
    func decisionFactsFitTheDatabasesLimit(letter: String) throws {
        let long = String(repeating: letter, count: 6_000)
        let facts = DSAExport.factsText(head: "Head.", reasoning: long, tail: " Tail.")
        #expect(facts.unicodeScalars.count == DSAVocabulary.maxFacts)
        #expect(facts.hasPrefix("Head. Reasoning: ") && facts.hasSuffix("… Tail."))
    }
}
