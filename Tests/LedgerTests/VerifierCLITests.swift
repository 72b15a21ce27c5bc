import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier
@testable import LedgerWriter

@Suite("CLI: verify — trust, checkpoints, output")
struct VerifierCLITests {
    func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    @Test func refusesWithoutARootOfTrust() {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let result = CLI.run(["verify", ledger])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--trust"))
    }

    @Test func unreadableInputExits65() {
        let scratch = ScratchDirectory()
        let result = CLI.run(["verify", scratch.path("nothing-here"), "--trust", TamperCorpusTests.trust])
        #expect(result.status == 65)
    }

    @Test(arguments: ["key", "allowed-signers", "fingerprint"])
    func everyFormOfTrustRootWorks(_ form: String) throws {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let key = FixtureLedger.signer1.publicKey
        let trust: String
        switch form {
        case "key": trust = TamperCorpusTests.trust
        case "allowed-signers":
            trust = scratch.path("allowed")
            try AllowedSigners(keys: [key]).text.write(toFile: trust, atomically: true, encoding: .utf8)
        default: trust = OpenSSHKey.fingerprint(key)
        }
        let result = CLI.run(["verify", ledger, "--trust", trust, "--at", "2026-09-01T00:00:00Z"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.hasPrefix("VERIFIED fixture-ledger"))
        #expect(result.stdout.contains("Apple scope:  team TEAM123456, apps app.onym.ios"))
    }

    /// After a successful run, the next run resumes from the remembered tip and checks only new commits.
    @Test func secondRunAfterAnAppendChecksOnlyTheNewCommit() throws {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let state = ["--state", scratch.path("auditor-state")]
        let first = CLI.run(
            ["verify", ledger, "--trust", TamperCorpusTests.trust, "--at", "2026-09-01T00:00:00Z", "--json"] + state)
        #expect(first.status == 0)
        let firstTip = try #require((json(first.stdout)["summary"] as? [String: Any])?["tip"] as? String)
        // The auditor's memory is in the state folder; the repository is untouched (no file, no ref).
        #expect(FileManager.default.fileExists(atPath: scratch.path("auditor-state") + "/ledgers/fixture-ledger"))
        #expect(!FileManager.default.fileExists(atPath: ledger + "/onym-ledger"))
        #expect(runProcess("git", ["--git-dir", ledger, "for-each-ref"]).stdout.split(separator: "\n").count == 1)

        _ = try Appender.with(ledger) {
            try $0.append(
                items: [
                    FixtureLedger.writes([
                        ("2026-08-13T00:00:00Z", 2, try Verdict(json: FixtureLedger.verdicts[2]).ref.hex, false, false)
                    ])
                ],
                signingKey: FixtureLedger.signer2, at: Instant.parse("2026-08-13T01:00:00Z")!,
                logKey: FixtureLedger.signer1
            )
        }
        let second = CLI.run(["verify", ledger, "--at", "2026-09-01T00:00:00Z", "--json"] + state)
        #expect(second.status == 0, "\(second.stdout) \(second.stderr)")
        let summary = try #require(json(second.stdout)["summary"] as? [String: Any])
        #expect(summary["commitsChecked"] as? Int == 1)
        #expect(summary["commits"] as? Int == 9)
        #expect(summary["resumedFrom"] as? String == firstTip)
        #expect(summary["writeEntries"] as? Int == 7)

        // --since names the starting commit explicitly.
        let since = CLI.run(
            [
                "verify", ledger, "--trust", TamperCorpusTests.trust, "--since", firstTip, "--at",
                "2026-09-01T00:00:00Z", "--json",
            ] + state)
        #expect((json(since.stdout)["summary"] as? [String: Any])?["commitsChecked"] as? Int == 1)
        // --full checks everything again.
        let full = CLI.run(
            ["verify", ledger, "--trust", TamperCorpusTests.trust, "--full", "--at", "2026-09-01T00:00:00Z", "--json"]
                + state)
        #expect((json(full.stdout)["summary"] as? [String: Any])?["commitsChecked"] as? Int == 9)
    }

    /// `--explain` prints every policy's decision on every commit, in the documented order.
    @Test func explainPrintsEveryDecisionInOrder() throws {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let result = CLI.run([
            "verify", ledger, "--trust", TamperCorpusTests.trust, "--explain", "--at", "2026-09-01T00:00:00Z",
        ])
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n")
        let names = StandardLedgerPolicy.policies.map { $0.name }
        #expect(lines.count == 8 * names.count)
        let root = try Repository.open(ledger).history(
            from: try Repository.open(ledger).referenceTarget(LedgerLayout.branch)!)[0]
        #expect(lines.prefix(names.count).map(String.init) == names.map { "\(root.short) \($0): ok" })
    }

    @Test func rejectedLedgerPrintsOneLinePerFailure() throws {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let surgeon = try Surgeon(path: ledger, keys: [FixtureLedger.signer1, FixtureLedger.signer2])
        surgeon.append([.remove(path: TamperCorpus.verdictPath(0))], signing: Surgeon.Signing.none)
        let result = CLI.run(["verify", ledger, "--trust", TamperCorpusTests.trust, "--at", "2026-09-01T00:00:00Z"])
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("REJECTED fixture-ledger — 2 integrity finding(s)"))
        #expect(result.stdout.contains("\nCommitSignaturePolicy: \(surgeon.tip.short): the commit is unsigned"))
        #expect(
            result.stdout.contains(
                "\nAppendOnlyPolicy: \(surgeon.tip.short) \(TamperCorpus.verdictPath(0)): deleted after it was published"
            ))
    }
}
