import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore

/// A ledger outlives its keys (docs/FORMAT.md, "Log handover"; README, "When a key leaks"): the drill on a
/// copy of the example. Its commits are signed by vendor-2026b, its checkpoints by vendor-2026a, which the
/// vendor retired: vendor-2026b hands the log to a new key without vendor-2026a, appends with only
/// vendor-2026b and the new log key, and an auditor pinned to the example's trust accepts the history; the
/// tip's checkpoint and the published tiles verify under the new key with golang.org/x/mod.
@Suite("Log handover: the compromise drill on the example")
struct LogHandoverTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let example = root.appendingPathComponent("ledger-example/ledger.git").path
    static let trust = root.appendingPathComponent("ledger-example/trust.pub").path

    @Test func vendor2026bHandsTheLogToANewKeyWithoutTheOldOne() throws {
        let scratch = ScratchDirectory()
        let ledger = scratch.path("ledger.git")
        #expect(runProcess("cp", ["-a", Self.example, ledger]).status == 0)
        let state = ["--state", scratch.path("auditor")]
        func key(_ name: String, _ seed: String) -> String {
            let path = scratch.path(name)
            #expect(CLI.run(["keygen", "--out", path, "--seed", String(repeating: seed, count: 32)]).status == 0)
            return path
        }
        let vendorB = key("vendor-2026b", "a2")
        let newLog = key("log-2026c", "c3")
        let another = key("vendor-2026c", "c4")
        // The auditor has verified the example before the drill, and the vendor published its log.
        #expect(CLI.run(["verify", ledger, "--trust", Self.trust] + state).status == 0)
        let site = scratch.path("site")
        let publish = ["publish", ledger, site, "--trust", Self.trust, "--state", scratch.path("p")]
        #expect(CLI.run(publish).status == 0)

        // A proof made under the old log, and a witness that cosigned the old log's checkpoint.
        let oldLogKey = try #require(Self.logKey(ledger))
        let oldProof = scratch.path("old.tlog-proof")
        let proved = CLI.run(["prove", ledger, "log:151", "--state", scratch.path("prover"), "--trust", Self.trust])
        #expect(proved.status == 0, "\(proved.stderr)")
        try proved.stdout.write(toFile: oldProof, atomically: true, encoding: .utf8)
        let witnessKey = key("witness", "d5")
        func cosign(_ at: String) -> (status: Int32, stdout: String, stderr: String) {
            CLI.run([
                "cosign", ledger, "--key", witnessKey, "--name", "auditor.example", "--trust", Self.trust, "--state",
                scratch.path("witness-state"), "--at", at, "--json",
            ])
        }
        let cosignedOld = cosign("2026-10-30T13:00:00Z")
        #expect(cosignedOld.status == 0, "\(cosignedOld.stderr)")
        // The vendor stores it (still with the old log key) and publishes: the folder's checkpoint is cosigned.
        let oldLog = key("vendor-2026a", "a1")
        let oldNote = scratch.path("cosigned-old.note")
        try #require(try CanonicalJSON.parse(Array(cosignedOld.stdout.utf8))["note"]?.stringValue).write(
            toFile: oldNote, atomically: true, encoding: .utf8)
        let storedOld = CLI.run([
            "append", ledger, "--signing-key", vendorB, "--log-key", oldLog, "--at", "2026-10-30T14:00:00Z", oldNote,
        ])
        #expect(storedOld.status == 0, "\(storedOld.stderr)")
        #expect(CLI.run(publish).status == 0)
        let lastOldCommit = try Repository.open(ledger).resolveCommit("main")

        // Without the old log key, vendor-2026b cannot add to the log...
        let refused = CLI.run([
            "keys", "rotate", ledger, "--signing-key", vendorB, "--add", another + ".pub", "--log-key", vendorB,
            "--at", "2026-10-31T00:00:00Z",
        ])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("logKey.notDeclared"))
        // ...until it hands the log over: a new origin and key, the same size and root.
        let before = try #require(Self.checkpoint(ledger))
        let handover = CLI.run([
            "keys", "rotate-log", ledger, "--signing-key", vendorB, "--log-key", newLog, "--at", "2026-10-31T00:00:00Z",
        ])
        #expect(handover.status == 0, "\(handover.stderr)")
        let after = try #require(Self.checkpoint(ledger))
        #expect(after.size == before.size && after.root == before.root)
        #expect(after.origin != before.origin)

        // Appends go on with vendor-2026b and the new log key only.
        let rotated = CLI.run([
            "keys", "rotate", ledger, "--signing-key", vendorB, "--add", another + ".pub", "--log-key", newLog,
            "--at", "2026-10-31T01:00:00Z",
        ])
        #expect(rotated.status == 0, "\(rotated.stderr)")
        // The old log key can no longer sign the log, and the log cannot be handed back to it.
        #expect(
            CLI.run([
                "keys", "rotate-log", ledger, "--signing-key", vendorB, "--log-key", oldLog, "--origin", "again",
                "--at", "2026-10-31T01:30:00Z",
            ]).status == 65)
        let stale = CLI.run([
            "keys", "rotate", ledger, "--signing-key", vendorB, "--remove", another + ".pub", "--log-key", oldLog,
            "--at", "2026-10-31T02:00:00Z",
        ])
        #expect(stale.status == 65)

        // The auditor, incrementally and from scratch, pinned to the example's first signer.
        for extra in [[], ["--full"]] {
            let verified = CLI.run(["verify", ledger, "--json"] + state + extra)
            #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
            let summary = try #require(
                (try JSONSerialization.jsonObject(with: Data(verified.stdout.utf8)) as? [String: Any])?["summary"]
                    as? [String: Any])
            let handovers = try #require(summary["logHandovers"] as? [[String: Any]])
            #expect(handovers.count == 1)
            #expect(handovers.first?["size"] as? Int == before.size)
            #expect((handovers.first?["to"] as? String)?.hasPrefix(after.origin + "+") == true)
        }
        let fresh = CLI.run(["verify", ledger, "--trust", Self.trust, "--state", scratch.path("fresh")])
        #expect(fresh.status == 0, "\(fresh.stdout)")
        #expect(fresh.stdout.contains("handover:"))
        let report = CLI.run(["report", ledger, "--out", scratch.path("report")] + state)
        #expect(report.status == 0, "\(report.stderr)")
        let overview = try String(contentsOfFile: scratch.path("report") + "/index.html", encoding: .utf8)
        #expect(overview.contains("Log handovers"))
        #expect(overview.contains(after.origin))
        let keys = CLI.run(["keys", "list", ledger])
        #expect(keys.stdout.contains("log key retired since"))
        #expect(keys.stdout.contains("log key in force since"))

        // The published log (the old folder followed onto the new log) checks with x/mod under the new key.
        // The proof made before the handover still checks, under the old log key.
        let entry = scratch.path("entry.json")
        try CLI.run(["show", ledger, "log:151"]).stdout.write(toFile: entry, atomically: true, encoding: .utf8)
        #expect(CLI.run(["check-proof", oldProof, "--log-key", oldLogKey, entry]).status == 0)
        // A witness sees a new origin: a first cosignature of the new log, not a split view of the old one.
        let cosignedNew = cosign("2026-10-31T03:00:00Z")
        #expect(cosignedNew.status == 0, "\(cosignedNew.stderr)")
        #expect(cosignedNew.stdout.contains(#""previousSize":null"#), "\(cosignedNew.stdout)")
        let cosignature = try CanonicalJSON.parse(Array(cosignedNew.stdout.utf8))
        let note = scratch.path("cosigned.note")
        try #require(cosignature["note"]?.stringValue).write(toFile: note, atomically: true, encoding: .utf8)
        let stored = CLI.run([
            "append", ledger, "--signing-key", vendorB, "--log-key", newLog, "--at", "2026-10-31T04:00:00Z", note,
        ])
        #expect(stored.status == 0, "\(stored.stderr)")
        let witness = try #require(cosignature["key"]?.stringValue)
        let witnessed = CLI.run(["verify", ledger, "--witness", witness] + state)
        #expect(witnessed.status == 0, "\(witnessed.stdout)")
        let newLogKey = try #require(Self.logKey(ledger))
        #expect(newLogKey != oldLogKey)
        let proofNow = CLI.run(["prove", ledger, "log:151", "--state", scratch.path("prover2"), "--trust", Self.trust])
        try proofNow.stdout.write(toFile: scratch.path("new.tlog-proof"), atomically: true, encoding: .utf8)
        #expect(CLI.run(["check-proof", scratch.path("new.tlog-proof"), "--log-key", newLogKey, entry]).status == 0)
        #expect(CLI.run(["check-proof", scratch.path("new.tlog-proof"), "--log-key", oldLogKey, entry]).status == 1)

        // A consistency proof to the commit before the handover ends in the old log's checkpoint.
        let toOld = CLI.run([
            "prove", ledger, "--consistency", "1", lastOldCommit.hex, "--state", scratch.path("prover3"),
            "--trust", Self.trust,
        ])
        #expect(toOld.status == 0, "\(toOld.stderr)")
        #expect(toOld.stdout.contains("\n\(before.origin)\n"), "\(toOld.stdout)")

        let republished = CLI.run(publish)
        #expect(republished.status == 0, "\(republished.stderr)")
        let vkey = try #require(
            CLI.run(["keys", "list", ledger, "--json"]).stdout.split(separator: "\"").first {
                $0.hasPrefix(after.origin + "+")
            })
        try String(vkey).write(toFile: site + "/vkey", atomically: true, encoding: .utf8)
        try "".write(toFile: site + "/proofs.txt", atomically: true, encoding: .utf8)
        let go = TransparencyTests.runGoChecker(site, scratch: scratch)
        #expect(go.status == 0, "\(go.output)")
    }

    /// The log key the tip's descriptor declares (`<origin>+<key ID>+<key>`).
    static func logKey(_ ledger: String) -> String? {
        let descriptor = runProcess("git", ["--git-dir", ledger, "show", "main:ledger.json"]).stdout
        return (try? CanonicalJSON.parse(Array(descriptor.utf8)))?["log"]?.stringValue
    }

    /// The tip's checkpoint as (origin, size, root).
    static func checkpoint(_ ledger: String) -> (origin: String, size: Int, root: String)? {
        let text = runProcess("git", ["--git-dir", ledger, "show", "main:checkpoint"]).stdout
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 3, let size = Int(lines[1]) else { return nil }
        return (String(lines[0]), size, String(lines[2]))
    }
}
