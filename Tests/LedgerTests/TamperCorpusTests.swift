import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier
@testable import LedgerWriter

/// The tamper corpus's acceptance test: the good ledger verifies with no findings; every attack in the
/// tamper corpus is rejected (exit 1) by the policy named for it.
@Suite("Verifier: good ledger and tamper corpus")
struct TamperCorpusTests {
    /// The good ledger, built once per test run.
    static let good: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "onym-ledger-good-\(UUID().uuidString)"
        ).path
        try! FixtureLedger.build(at: path)
        return path
    }()

    static var trust: String {
        let path = good + "-trust.pub"
        if !FileManager.default.fileExists(atPath: path) {
            try! (OpenSSHKey.publicKeyLine(FixtureLedger.signer1.publicKey) + "\n").write(
                toFile: path, atomically: true, encoding: .utf8)
        }
        return path
    }

    static func copyOfGood(_ scratch: borrowing ScratchDirectory) -> String {
        let copy = scratch.path("ledger")
        let result = runProcess("cp", ["-a", good, copy])
        precondition(result.status == 0, result.stderr)
        // A copy carries no checkpoint: every run starts from the trust root.
        try? FileManager.default.removeItem(atPath: copy + "/onym-ledger")
        return copy
    }

    static func verify(_ ledger: String, extra: [String] = ["--full"]) -> (
        status: Int32, report: [String: Any], stderr: String
    ) {
        let result = CLI.run(["verify", ledger, "--trust", trust, "--at", "2026-09-01T00:00:00Z", "--json"] + extra)
        let report = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any] ?? [:]
        return (result.status, report, result.stderr)
    }

    @Test func goodLedgerVerifiesWithNoFindings() throws {
        let scratch = ScratchDirectory()
        let ledger = Self.copyOfGood(scratch)
        let result = Self.verify(ledger)
        #expect(result.status == 0, "\(result.report) \(result.stderr)")
        #expect((result.report["findings"] as? [Any])?.isEmpty == true)
        let summary = try #require(result.report["summary"] as? [String: Any])
        #expect(summary["commits"] as? Int == 8)
        #expect(summary["writeEntries"] as? Int == 6)
        let records = try #require(summary["records"] as? [String: Int])
        #expect(
            records == ["manifest": 1, "mandate": 3, "verdict": 3, "receipt": 3, "profile": 1, "write-log-entry": 6])
        // 8 commit signatures + 8 checkpoints + 3 mandates × 2 + 3 verdicts + 1 manifest signature.
        #expect(summary["signaturesChecked"] as? Int == 26)
    }

    @Test func corpusHasAtLeastSixtyAttacks() {
        #expect(TamperCorpus.attacks.count >= 60)
        #expect(Set(TamperCorpus.attacks.map(\.name)).count == TamperCorpus.attacks.count)
    }

    @Test(arguments: TamperCorpus.attacks)
    func attackIsRejectedByItsPolicy(_ attack: TamperCorpus.Attack) throws {
        let scratch = ScratchDirectory()
        let ledger = Self.copyOfGood(scratch)
        let state = ["--state", scratch.path("auditor-state")]
        if attack.afterCheckpoint {
            #expect(Self.verify(ledger, extra: state).status == 0)
        }
        let surgeon = try Surgeon(
            path: ledger, keys: [FixtureLedger.signer1, FixtureLedger.signer2, TamperCorpus.stranger])
        attack.mutate(surgeon)
        let result = Self.verify(ledger, extra: state + (attack.afterCheckpoint ? [] : ["--full"]))
        if attack.accepted {
            // A point of the contract that a stricter reading would wrongly refuse: it verifies, clean.
            #expect(result.status == 0, "\(attack.name): exit \(result.status) \(result.report) \(result.stderr)")
            #expect((result.report["findings"] as? [[String: Any]] ?? []).isEmpty, "\(attack.name)")
            return
        }
        // Integrity attacks are rejected (1); an authentic history showing misconduct verifies with findings (2).
        #expect(result.status == (attack.conduct ? 2 : 1), "\(attack.name): exit \(result.status) \(result.stderr)")
        #expect(
            result.report["authentic"] as? Bool == attack.conduct,
            "\(attack.name): \((result.report["findings"] as? [[String: Any]] ?? []).map { "\($0["policy"] ?? "") \($0["kind"] ?? ""): \($0["reason"] ?? "")" })"
        )
        let failures = (result.report["findings"] as? [[String: Any]]) ?? []
        let policies = Set(failures.compactMap { $0["policy"] as? String })
        #expect(
            policies.contains(attack.policy),
            "\(attack.name): got \(failures.map { "\($0["policy"] ?? ""): \($0["reason"] ?? "")" })")
        let kinds = Set(
            failures.filter { $0["policy"] as? String == attack.policy }.compactMap { $0["kind"] as? String })
        #expect(kinds == [attack.conduct ? "conduct" : "integrity"], "\(attack.name)")
    }
}
