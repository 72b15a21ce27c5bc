import Foundation
import Testing

@testable import LedgerFormat

/// One type per field name across every verb's `--json` (a consumer parses `conductFindings` once):
/// `append` lists its batch's conduct findings as `conductFindings`, an array; the verbs that report how
/// many the ledger has say `conductFindingCount`, a number.
@Suite("JSON output: a field name has one type across verbs")
struct JSONFieldTypesCLITests {
    /// The JSON type of a value, by name.
    static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "bool"
        case .integer: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    @Test func everyTopLevelFieldHasOneTypeAcrossVerbs() throws {
        let scenario = LedgerScenario()
        let trust = scenario.signer + ".pub"
        let state = scenario.scratch.path("state")
        let appended = CLI.run([
            "append", scenario.ledger, "--signing-key", scenario.signer, "--at", "2026-08-10T00:00:00Z", "--json",
            scenario.file(scenario.mandate()),
        ])
        #expect(appended.status == 0, "\(appended.stderr)")
        let audit = ["--trust", trust, "--state", state, "--json"]
        let outputs: [(verb: String, stdout: String)] = [
            ("append", appended.stdout),
            ("verify", CLI.run(["verify", scenario.ledger] + audit).stdout),
            (
                "gate",
                CLI.run(
                    ["gate", scenario.ledger, "--binding", "enrollment:device-1", "--at", "2026-08-11T00:00:00Z"]
                        + audit
                ).stdout
            ),
            ("reconcile", CLI.run(["reconcile", scenario.ledger, "--at", "2026-08-11T00:00:00Z"] + audit).stdout),
            ("report", CLI.run(["report", scenario.ledger, "--out", scenario.scratch.path("site")] + audit).stdout),
        ]
        var types: [String: [String: String]] = [:]  // field → type → first verb seen
        for (verb, stdout) in outputs {
            let object = try CanonicalJSON.parse(Array(stdout.trimmingCharacters(in: .whitespacesAndNewlines).utf8))
            for key in object.keys {
                let type = Self.typeName(object[key]!)
                if types[key]?[type] == nil { types[key, default: [:]][type] = verb }
            }
        }
        for (key, byType) in types {
            #expect(byType.count == 1, "\(key): \(byType.map { "\($0.key) in \($0.value)" }.sorted())")
        }
        #expect(types["conductFindings"] == ["array": "append"])
        #expect(types["conductFindingCount"]?.keys.sorted() == ["number"])
    }
}
