import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerWriter

@Suite("Writer safety: stock git interop, crashes, races")
struct WriterSafetyTests {
    /// Stock `git verify-commit` accepts every commit with the ledger's signers, `git fsck --strict`
    /// is clean, and a wrong allowed-signers file fails.
    @Test func stockGitVerifiesEveryCommitAndFsckIsClean() throws {
        let scenario = LedgerScenario()
        let next = scenario.scratch.path("next")
        #expect(CLI.run(["keygen", "--out", next, "--seed", String(repeating: "02", count: 32)]).status == 0)
        scenario.append([scenario.file(scenario.mandate())], at: "2026-08-09T00:00:00Z")
        #expect(
            CLI.run([
                "keys", "rotate", scenario.ledger, "--signing-key", scenario.signer, "--add", next + ".pub",
                "--at", "2026-08-09T00:00:01Z",
            ]).status == 0)
        #expect(
            CLI.run([
                "append", scenario.ledger, "--signing-key", next, "--log-key", scenario.signer, "--at",
                "2026-08-10T00:00:00Z",
                scenario.writeRequests([
                    ("2026-08-10T00:00:00Z", "enrollment:device-1", "reconciliation", false, false, "ok")
                ]),
            ]).status == 0)

        let allKeys = [scenario.signer, next].map {
            try! String(contentsOfFile: $0 + ".pub", encoding: .utf8).trimmingCharacters(in: .newlines)
        }
        let allowed = scenario.allowedSignersFile(keys: allKeys)
        let commits = scenario.commits
        #expect(commits.count == 4)
        for commit in commits {
            let result = runProcess(
                "git",
                [
                    "--git-dir", scenario.ledger, "-c", "gpg.format=ssh", "-c",
                    "gpg.ssh.allowedSignersFile=\(allowed)", "verify-commit", "-v", commit,
                ])
            #expect(result.status == 0, "\(commit): \(result.stderr)")
            #expect(result.stderr.contains("Good \"git\" signature"), "\(result.stderr)")
        }
        let fsck = runProcess("git", ["--git-dir", scenario.ledger, "fsck", "--strict", "--full", "--no-dangling"])
        #expect(fsck.status == 0, "\(fsck.stdout)\(fsck.stderr)")
        #expect(fsck.stdout.isEmpty && !fsck.stderr.contains("error"), "\(fsck.stdout)\(fsck.stderr)")

        let stranger = scenario.scratch.path("stranger")
        #expect(CLI.run(["keygen", "--out", stranger, "--seed", String(repeating: "03", count: 32)]).status == 0)
        let wrong = scenario.allowedSignersFile(keys: [
            try String(contentsOfFile: stranger + ".pub", encoding: .utf8).trimmingCharacters(in: .newlines)
        ])
        let rejected = runProcess(
            "git",
            [
                "--git-dir", scenario.ledger, "-c", "gpg.format=ssh", "-c",
                "gpg.ssh.allowedSignersFile=\(wrong)", "verify-commit", commits[0],
            ])
        #expect(rejected.status != 0)
    }

    /// An append killed (SIGKILL) at every step leaves the branch at a complete commit — the old tip
    /// or the new one — and a retry succeeds with each entry logged exactly once.
    @Test(arguments: CrashPoint.allCases.map(\.rawValue))
    func killedAppendLeavesOldOrNewTipAndRetrySucceeds(_ point: String) throws {
        let scenario = LedgerScenario()
        scenario.append([scenario.file(scenario.mandate())], at: "2026-08-09T00:00:00Z")
        let before = scenario.tip
        let writes = scenario.writeRequests([
            ("2026-08-10T00:00:00Z", "enrollment:device-1", "reconciliation", false, false, "ok"),
            ("2026-08-10T00:00:01Z", "enrollment:device-1", "reconciliation", false, false, "ok"),
        ])
        let arguments = [
            "append", scenario.ledger, "--signing-key", scenario.signer, "--at", "2026-08-10T01:00:00Z",
            "--idempotency-key", "backend-request-1", writes,
        ]
        let killed = CLI.run(arguments, environment: ["ONYM_LEDGER_UNSAFE_TEST_CRASH_AT": point])
        #expect(killed.status == 9, "the process should have been killed at \(point)")
        let after = scenario.tip
        let moved = after != before
        #expect(moved == (point == "afterReference"), "\(point): tip moved \(moved)")
        let fsck = runProcess("git", ["--git-dir", scenario.ledger, "fsck", "--strict", "--no-dangling"])
        #expect(fsck.status == 0, "\(point): \(fsck.stderr)")

        let retry = CLI.run(arguments)
        #expect(retry.status == 0, "\(retry.stderr)")
        let message = runProcess("git", ["--git-dir", scenario.ledger, "log", "-1", "--format=format:%B"]).stdout
        #expect(LedgerTrailers(message: message)?.logSize == 2)
        #expect(scenario.commits.count == 3)
        #expect(scenario.show(LedgerLayout.logEntryPath(3)) == nil)
    }

    /// Two processes appending 200 batches each, concurrently, through the real CLI: no entry is
    /// lost, duplicated or forked; the history stays linear and the chain continuous.
    @Test func twoConcurrentWritersNeverLoseDuplicateOrFork() throws {
        let scenario = LedgerScenario()
        scenario.append([scenario.file(scenario.mandate())], at: "2026-08-09T00:00:00Z")
        let perWriter = 200
        var scripts: [String] = []
        for writer in ["A", "B"] {
            var lines = ["set -e"]
            for index in 1...perWriter {
                let file = scenario.writeRequests([
                    ("2026-08-10T01:00:00Z", "enrollment:device-1", "writer-\(writer)-\(index)", false, false, "ok")
                ])
                lines.append(
                    "'\(CLI.binary)' append '\(scenario.ledger)' --signing-key '\(scenario.signer)' --at 2026-08-10T01:00:00Z '\(file)' >/dev/null"
                )
            }
            let script = scenario.scratch.path("writer-\(writer).sh")
            try lines.joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
            scripts.append(script)
        }
        let processes = scripts.map { script -> Process in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [script]
            try! process.run()
            return process
        }
        for process in processes { process.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })

        let repository = try Repository.open(scenario.ledger)
        let tip = try #require(try repository.referenceTarget(LedgerLayout.branch))
        let history = try repository.history(from: tip)
        #expect(history.count == 2 + 2 * perWriter)
        #expect(try history.allSatisfy { try repository.commit($0).parents.count <= 1 })
        var previous = WriteLogEntry.genesis
        var seen: [String: Int] = [:]
        for sequence in 1...Int64(2 * perWriter) {
            let bytes = try #require(try repository.blob(at: LedgerLayout.logEntryPath(sequence), inCommit: tip))
            let entry = try WriteLogEntry(json: try CanonicalJSON.parseCanonical(bytes))
            #expect(entry.previousHash == previous)
            #expect(entry.recomputedHash == entry.entryHash)
            previous = entry.entryHash
            seen[entry.authorizedBy.text, default: 0] += 1
        }
        #expect(seen.count == 2 * perWriter)
        #expect(seen.values.allSatisfy { $0 == 1 })
        let message = try repository.commit(tip).message
        let trailers = try #require(LedgerTrailers(message: message))
        #expect(trailers.logSize == Int64(2 * perWriter))
        #expect(trailers.logHead == previous)
    }

    /// A retry is recognized by the caller's key, never by equal content.
    @Test func equalCallsAreTwoEntriesAndAKeyedRetryIsOne() {
        let scenario = LedgerScenario()
        scenario.append([scenario.file(scenario.mandate())], at: "2026-08-09T00:00:00Z")
        let writes = scenario.writeRequests([
            ("2026-08-10T00:00:00Z", "enrollment:device-1", "reconciliation", false, false, "ok")
        ])
        // Two real calls with byte-identical requests: two entries.
        scenario.append([writes], at: "2026-08-10T00:00:00Z")
        scenario.append([writes], at: "2026-08-10T00:00:00Z")
        #expect(scenario.show(LedgerLayout.logEntryPath(2)) != nil)
        // A keyed call and its retry: one more entry, not two.
        let keyed = ["--idempotency-key", "req-42"]
        let first = CLI.run(
            ["append", scenario.ledger, "--signing-key", scenario.signer, "--at", "2026-08-10T00:00:00Z"] + keyed
                + [writes])
        #expect(first.status == 0)
        let retry = CLI.run(
            ["append", scenario.ledger, "--signing-key", scenario.signer, "--at", "2026-08-10T00:00:00Z"] + keyed
                + [writes])
        #expect(retry.status == 0)
        #expect(retry.stdout.contains("nothing new"), "\(retry.stdout)")
        #expect(scenario.show(LedgerLayout.logEntryPath(3)) != nil)
        #expect(scenario.show(LedgerLayout.logEntryPath(4)) == nil)
        // The same key for other requests is refused: it would hide a real call.
        let other = scenario.writeRequests([
            ("2026-08-10T00:00:00Z", "enrollment:device-1", "reconciliation", false, false, "failed: 503")
        ])
        let reused = CLI.run(
            ["append", scenario.ledger, "--signing-key", scenario.signer, "--at", "2026-08-10T00:00:00Z"] + keyed
                + [other])
        #expect(reused.status == 65)
        #expect(reused.stderr.contains("append.idempotencyKeyReused"))
        #expect(
            CLI.run([
                "append", scenario.ledger, "--signing-key", scenario.signer, "--idempotency-key", "no spaces", other,
            ]).status == 64)
    }
}
