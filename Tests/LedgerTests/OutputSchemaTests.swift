import Foundation
import LedgerTestSupport
import Testing

/// `gate --json` and `reconcile --json` have published schemas (`schemas/gate-output.schema.json`,
/// `schemas/reconcile-output.schema.json`), validated here against real outputs of the example by an outside
/// JSON Schema validator (Python `jsonschema`, `scripts/validate-records.py`); a refusal under `--json` is a
/// JSON error object.
@Suite("Machine output: schemas for gate and reconcile, JSON errors")
struct OutputSchemaTests {
    static let validator = ExampleLedgerTests.root.appendingPathComponent("scripts/validate-records.py").path

    static func actor(_ name: String) -> String {
        let table = try! String(
            contentsOf: ExampleLedgerTests.example.appendingPathComponent("actors.tsv"), encoding: .utf8)
        return String(table.split(separator: "\n").first { $0.hasPrefix(name + "\t") }!.split(separator: "\t")[1])
    }

    @Test func gateAndReconcileOutputsMatchTheirSchemas() throws {
        let scratch = ScratchDirectory()
        let ledger = ExampleLedgerTests.copy(scratch)
        let state = ["--state", scratch.path("state"), "--trust", ExampleLedgerTests.trust]
        // Banned, case open, clear, the new-holder route, and a deadline default.
        let asks: [(String, [String])] = [
            ("bruno", ["--at", "2026-09-01T00:00:00Z"]), ("kofi", ["--at", "2026-07-21T00:00:00Z"]),
            ("alice", ["--at", "2026-07-01T00:00:00Z"]),
            ("milo", ["--at", "2026-08-21T00:00:00Z", "--apple-bits", "10"]),
            ("lena", ["--at", "2026-08-20T00:00:00Z"]),
        ]
        var arguments: [String] = []
        var files: [String] = []
        for (name, extra) in asks {
            let result = CLI.run(["gate", ledger, "--user", Self.actor(name), "--json"] + state + extra)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let file = scratch.path("gate-\(name).json")
            try result.stdout.write(toFile: file, atomically: true, encoding: .utf8)
            arguments.append("gate-output=\(file)")
            files.append(file)
        }
        for at in ["2026-07-15T00:00:00Z", "2026-11-01T00:00:00Z"] {
            let result = CLI.run(["reconcile", ledger, "--at", at, "--json"] + state)
            #expect(result.status == 0, "\(result.stderr)")
            let file = scratch.path("reconcile-\(at.prefix(10)).json")
            try result.stdout.write(toFile: file, atomically: true, encoding: .utf8)
            arguments.append("reconcile-output=\(file)")
        }
        // And a gate answer with one field too many: the schema must refuse it.
        var extra = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: files[0]))) as? [String: Any])
        extra["surprise"] = true
        let broken = scratch.path("gate-broken.json")
        try JSONSerialization.data(withJSONObject: extra).write(to: URL(fileURLWithPath: broken))
        arguments.append("gate-output=\(broken)")
        let checked = runProcess("python3", [Self.validator] + arguments)
        #expect(checked.status == 0, "\(checked.stderr)")
        let verdicts = checked.stdout.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
        }
        #expect(verdicts.count == arguments.count)
        for verdict in verdicts.dropLast() {
            #expect(verdict["valid"] as? Bool == true, "\(verdict)")
        }
        #expect(verdicts.last?["valid"] as? Bool == false)
    }

    @Test func anUnknownBindingUnderJSONIsAJSONError() throws {
        let scratch = ScratchDirectory()
        let ledger = ExampleLedgerTests.copy(scratch)
        let result = CLI.run([
            "gate", ledger, "--binding", "enrollment:nobody", "--at", "2026-08-20T00:00:00Z", "--json", "--trust",
            ExampleLedgerTests.trust, "--state", scratch.path("state"),
        ])
        #expect(result.status == 65)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["exitCode"] as? Int == 65)
        #expect(error["verb"] as? String == "gate")
        #expect((error["message"] as? String)?.contains("enrollment:nobody") == true)
    }
}
