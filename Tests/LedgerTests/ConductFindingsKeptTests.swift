import Foundation
import LedgerTestSupport
import Testing

/// Conduct is a property of the history, not of the run (docs/VERIFY.md, "The auditor's state"): every
/// later run — incremental, `--since`, and every verb that verifies first — reports the conduct findings an
/// earlier run found, and a state that lost them checks the history again rather than call it compliant.
@Suite("Conduct findings are kept between runs")
struct ConductFindingsKeptTests {
    static let conformance = ConformanceSuiteTests.root
    static let at = ["--at", ConformanceSuite.at]

    static func findings(_ stdout: String) -> [[String: String]] {
        let report = (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] ?? [:]
        return (report["findings"] as? [[String: Any]] ?? []).map { finding in
            finding.compactMapValues { value in
                value as? String
                    ?? (try? JSONSerialization.data(withJSONObject: value, options: .sortedKeys))
                    .map { String(decoding: $0, as: UTF8.self) }
            }
        }
    }

    @Test func everyLaterRunAndVerbReportsTheSameConductFindings() throws {
        let scratch = ScratchDirectory()
        let ledger = scratch.path("ledger.git")
        #expect(
            runProcess("cp", ["-a", Self.conformance + "/ledgers/WriteReplayPolicy-conduct.git", ledger]).status == 0)
        let state = ["--state", scratch.path("state")]
        let trust = ["--trust", Self.conformance + "/trust.pub"]

        let first = CLI.run(["verify", ledger, "--json"] + trust + state + Self.at)
        #expect(first.status == 2, "\(first.stdout) \(first.stderr)")
        let found = Self.findings(first.stdout)
        #expect(found.count >= 1)
        #expect(found.allSatisfy { $0["kind"] == "conduct" && $0["policy"] == "WriteReplayPolicy" })

        // The same auditor state, nothing new in the ledger: the same findings, the same exit.
        for _ in 0..<2 {
            let again = CLI.run(["verify", ledger, "--json"] + state + Self.at)
            #expect(again.status == 2, "\(again.stdout) \(again.stderr)")
            #expect(Self.findings(again.stdout) == found)
        }
        let human = CLI.run(["verify", ledger] + state + Self.at)
        #expect(human.stdout.hasPrefix("VERIFIED WITH FINDINGS"), "\(human.stdout)")

        // --since the tip: nothing to check, the history's findings still stand.
        let tip = runProcess("git", ["--git-dir", ledger, "rev-parse", "main"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let since = CLI.run(["verify", ledger, "--json", "--since", tip] + state + Self.at)
        #expect(since.status == 2, "\(since.stdout) \(since.stderr)")
        #expect(Self.findings(since.stdout) == found)

        // Every verb that verifies first says so.
        let written = try #require(found.first?["write"])
        let binding = try #require(
            (try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: Any])?["deviceBinding"]
                as? String)
        let reconcile = CLI.run(["reconcile", ledger, "--at", ConformanceSuite.at] + state)
        #expect(reconcile.stderr.contains("conduct finding"), "\(reconcile.stderr)")
        #expect(reconcile.stdout.contains("corrects unauthorized write"), "\(reconcile.stdout)")
        let gate = CLI.run(["gate", ledger, "--binding", binding, "--at", ConformanceSuite.at] + state)
        #expect(gate.stderr.contains("conduct finding"), "\(gate.stderr)")
        let site = scratch.path("report")
        let report = CLI.run(["report", ledger, "--out", site] + state)
        #expect(report.status == 0, "\(report.stderr)")
        let overview = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        #expect(!overview.contains("every write authorized"))
        #expect(overview.contains("conduct finding"))
        let export = CLI.run(["export", "dsa", ledger, "--out", scratch.path("dsa.jsonl")] + state)
        #expect(export.stderr.contains("conduct finding"), "\(export.stderr)")

        // A state that lost its findings (or was written before they were kept) checks everything again.
        let folder = try #require(
            (try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])?["stateFolder"]
                as? String)
        #expect(FileManager.default.fileExists(atPath: folder + "/conduct.json"))
        try FileManager.default.removeItem(atPath: folder + "/conduct.json")
        let rebuilt = CLI.run(["verify", ledger, "--json"] + state + Self.at)
        #expect(rebuilt.status == 2, "\(rebuilt.stdout) \(rebuilt.stderr)")
        #expect(Self.findings(rebuilt.stdout) == found)
    }
}
