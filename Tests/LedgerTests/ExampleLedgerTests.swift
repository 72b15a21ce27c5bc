import Foundation
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerWriter

/// The checked-in example ledger verifies, regenerates bit for bit from its scenario, and
/// shows every story beat through verify, gate and reconcile.
@Suite("Example ledger", .serialized)
struct ExampleLedgerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let example = root.appendingPathComponent("ledger-example")
    static var trust: String { example.appendingPathComponent("trust.pub").path }

    /// A copy, so verification's checkpoint never lands in the source tree.
    static func copy(_ scratch: borrowing ScratchDirectory) -> String {
        let path = scratch.path("example.git")
        #expect(runProcess("cp", ["-a", example.appendingPathComponent("ledger.git").path, path]).status == 0)
        try? FileManager.default.removeItem(atPath: path + "/onym-ledger")
        return path
    }

    static func actor(_ name: String) -> String {
        let table = try! String(contentsOf: example.appendingPathComponent("actors.tsv"), encoding: .utf8)
        let line = table.split(separator: "\n").first { $0.hasPrefix(name + "\t") }!
        return String(line.split(separator: "\t")[1])
    }

    @Test func verifiesWithTheStoryAtScale() throws {
        let scratch = ScratchDirectory()
        let ledger = Self.copy(scratch)
        let result = CLI.run(["verify", ledger, "--trust", Self.trust, "--json"])
        #expect(result.status == 0, "\(result.stdout)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let summary = try #require(report["summary"] as? [String: Any])
        #expect((summary["writeEntries"] as? Int ?? 0) >= 200)
        let records = try #require(summary["records"] as? [String: Int])
        #expect(records["manifest"] == 2)  // two authorities
        #expect(records["revocation"] == 1 && records["compromise-report"] == 1)
        #expect(records["grant"] == 2 && records["redemption"] == 2)  // Nadia's recovery, Omar's unban
        #expect((report["findings"] as? [Any])?.isEmpty == true, "\(result.stdout)")
        #expect((records["mandate"] ?? 0) >= 12)
        let account = try #require(summary["appleAccount"] as? [String: Any])
        #expect((account["apps"] as? [String])?.count == 3)
        // The vendor rotated its commit-signing key: the first key no longer signs.
        #expect((summary["signers"] as? [String])?.count == 1)
        let log = CLI.run(["log", ledger])
        #expect(log.stdout.contains("keys: add SHA256:"))
        #expect(log.stdout.contains("keys: remove SHA256:"))
    }

    /// The generator writes exactly the checked-in inputs, replay script and actors table.
    @Test func theGeneratorReproducesTheInputsAndTheReplayScript() throws {
        let scratch = ScratchDirectory()
        let generator = Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("ExampleGenerator")
            .path
        let root = scratch.path("example")
        let result = runProcess(
            generator,
            [
                "--scenario", Self.example.appendingPathComponent("scenario.txt").path, "--root", root,
                "--actors", scratch.path("actors.tsv"),
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let inputs = runProcess("diff", ["-r", root + "/inputs", Self.example.appendingPathComponent("inputs").path])
        #expect(inputs.status == 0, "the checked-in inputs are stale (make example): \(inputs.stdout.prefix(2000))")
        let script = runProcess("diff", [root + "/replay.sh", Self.example.appendingPathComponent("replay.sh").path])
        #expect(script.status == 0, "the checked-in replay.sh is stale (make example): \(script.stdout.prefix(2000))")
        #expect(
            try String(contentsOfFile: scratch.path("actors.tsv"), encoding: .utf8)
                == String(contentsOf: Self.example.appendingPathComponent("actors.tsv"), encoding: .utf8))
    }

    /// `ledger-example/replay.sh` — plain init, append and keys rotate commands over the
    /// checked-in inputs — rebuilds the example's tip commit bit for bit.
    @Test func replayReproducesTheTipCommit() throws {
        let scratch = ScratchDirectory()
        let rebuilt = scratch.path("rebuilt.git")
        let result = runProcess(
            Self.example.appendingPathComponent("replay.sh").path, [rebuilt],
            environment: ["ONYM_LEDGER": CLI.binary, "XDG_STATE_HOME": scratch.path("state")])
        #expect(result.status == 0, "\(result.stderr)")
        // Every append was judged from the writer's state files of the append before: none found a fault.
        #expect(!result.stderr.contains("conduct finding"), "\(result.stderr)")
        func tip(_ path: String) -> String {
            runProcess("git", ["--git-dir", path, "rev-parse", "refs/heads/main"]).stdout
        }
        #expect(!tip(rebuilt).isEmpty)
        #expect(tip(rebuilt) == tip(Self.example.appendingPathComponent("ledger.git").path))
        #expect(result.stdout.contains(tip(rebuilt).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test func everyBeatIsVisible() throws {
        let scratch = ScratchDirectory()
        let ledger = Self.copy(scratch)
        func gate(_ user: String, _ at: String, _ extra: [String] = []) -> String {
            CLI.run(["gate", ledger, "--trust", Self.trust, "--user", Self.actor(user), "--at", at] + extra).stdout
        }
        #expect(gate("bruno", "2026-09-01T00:00:00Z").hasPrefix(#"{"banned":"#))  // non-suspensive ban
        // Suspensive: stored, not yet executed.
        #expect(gate("chloe", "2026-07-01T00:00:00Z").hasPrefix(#"{"clear":{}}"#))
        #expect(gate("chloe", "2026-07-10T00:00:00Z").hasPrefix(#"{"banned":"#))
        #expect(gate("chloe", "2026-07-21T00:00:00Z").hasPrefix(#"{"clear":{}}"#))  // reversed on appeal
        #expect(gate("hana", "2029-01-01T00:00:00Z").contains("permanently"))  // permanent term
        #expect(gate("emeka", "2026-06-30T00:00:00Z").contains("blown decision deadline"))
        #expect(gate("farah", "2026-07-20T00:00:00Z").hasPrefix(#"{"banned":"#))
        #expect(gate("farah", "2026-07-26T00:00:00Z").contains("designation revocation"))
        #expect(gate("kofi", "2026-07-21T00:00:00Z").hasPrefix(#"{"caseOpen":"#))
        #expect(gate("june", "2026-08-04T00:00:00Z").hasPrefix(#"{"clear":{}}"#))  // same-second ban and dismissal
        #expect(gate("lena", "2026-08-20T00:00:00Z").hasPrefix(#"{"clear":{}}"#))  // a late ban is not executed
        let newHolder = gate("milo", "2026-08-21T00:00:00Z", ["--apple-bits", "10"])
        #expect(newHolder.hasPrefix(#"{"checkRequired":{"_0":"reidentificationRequired"}}"#))
        #expect(newHolder.contains("new-holder-fast-path"))

        let reconcile = CLI.run(["reconcile", ledger, "--trust", Self.trust, "--at", "2026-07-15T00:00:00Z"]).stdout
        #expect(reconcile.contains("expiry  (overdue clear)"))  // Dmitri's ban expired while his phone was away

        // Gus: the ban waited for his reinstall; Farah: a failed write, then the retry.
        let repository = try Repository.open(ledger)
        let tip = try #require(try repository.referenceTarget(LedgerLayout.branch))
        let entries = try (1...400).compactMap { sequence -> String? in
            try repository.blob(at: LedgerLayout.logEntryPath(Int64(sequence)), inCommit: tip).map {
                String(decoding: $0, as: UTF8.self)
            }
        }
        #expect(entries.count >= 200)
        #expect(entries.contains { $0.contains("failed: mark_write_failed") })
        let gusBinding = Self.actorBinding("gus")
        #expect(entries.contains { $0.contains(gusBinding) && $0.contains("\"recordedAt\":\"2026-07-01T10:01:00Z\"") })
        // The logged rule names tell the README's story: Lena's late ban is not executed and
        // the clear is the deadline default's; Ivan's case, open when the civic panel's revocation took
        // effect (07-24, before his 07-24T08:00 deadline), clears by the revocation.
        func entry(of user: String, at recordedAt: String) -> String? {
            let binding = Self.actorBinding(user)
            return entries.first { $0.contains(binding) && $0.contains("\"recordedAt\":\"\(recordedAt)\"") }
        }
        #expect(
            entry(of: "lena", at: "2026-08-20T09:00:00Z")?.contains(#""authorizedBy":"decision-deadline-default""#)
                == true)
        #expect(
            entry(of: "ivan", at: "2026-07-25T12:00:00Z")?.contains(#""authorizedBy":"designation-revocation""#) == true
        )

        // Nadia reinstalls on a new phone while banned; her recovery grant moves the ban (and her mandate) to the
        // new binding, where the next write sets it; her old binding no longer carries it.
        let nadia = try #require(
            try JSONSerialization.jsonObject(
                with: Data(gate("nadia", "2026-09-15T00:00:00Z", ["--json"]).utf8)) as? [String: Any])
        let ban = try #require(nadia["authorizedBy"] as? String)
        #expect((nadia["result"] as? [String: Any])?["banned"] != nil, "\(nadia)")
        #expect(nadia["binding"] as? String == Self.actorBinding("nadia@nadia-phone-2"))
        #expect(gate("nadia", "2026-09-01T00:00:00Z").contains(ban.prefix(16)))  // banned on her first phone
        // The answer on the new phone says where its ban came from: the recovery that moved the case there.
        let moved = try #require(nadia["explanation"] as? String)
        #expect(
            moved.contains("(case n-1), redeemed 2026-09-07T")
                && moved.contains("moved the case here from \(Self.actorBinding("nadia"))."), "\(moved)")
        #expect(!gate("nadia", "2026-09-01T00:00:00Z").contains("Recovery grant"))
        #expect(
            entry(of: "nadia@nadia-phone-2", at: "2026-09-07T10:00:00Z")?.contains(#""authorizedBy":"\#(ban)""#) == true
        )
        let old = CLI.run([
            "gate", ledger, "--trust", Self.trust, "--binding", Self.actorBinding("nadia"), "--at",
            "2026-09-15T00:00:00Z",
        ]).stdout
        #expect(old.hasPrefix(#"{"clear":{}}"#), "\(old)")
        // The identities each answer names are where the recovery put Nadia's mandate at the asked instant: the
        // new phone's binding from the redemption on, her first phone's binding only before it.
        let nadiaKey = Self.actor("nadia")
        func users(_ answer: [String: Any]) -> [String] {
            (answer["identities"] as? [[String: Any]] ?? []).compactMap { $0["user"] as? String }
        }
        #expect(users(nadia).contains(nadiaKey), "\(nadia)")
        func identities(on user: String, at instant: String) throws -> [String] {
            let answer = CLI.run([
                "gate", ledger, "--trust", Self.trust, "--binding", Self.actorBinding(user), "--at", instant, "--json",
            ]).stdout
            return users(try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any]))
        }
        #expect(try identities(on: "nadia", at: "2026-09-01T00:00:00Z").contains(nadiaKey))
        #expect(try !identities(on: "nadia", at: "2026-09-15T00:00:00Z").contains(nadiaKey))
        #expect(try !identities(on: "nadia@nadia-phone-2", at: "2026-09-01T00:00:00Z").contains(nadiaKey))
        // Omar's permanent ban ends with the safety board's unban grant; the next write is logged against it.
        #expect(gate("omar", "2026-09-01T00:00:00Z").contains("permanently"))
        #expect(gate("omar", "2026-09-22T00:00:00Z").hasPrefix(#"{"clear":{}}"#))
        let grantFile = try #require(
            try FileManager.default.contentsOfDirectory(
                atPath: Self.example.appendingPathComponent("inputs/2026-09-21T100000Z").path
            ).first { $0.hasSuffix("-grant-unban-omar.json") })
        let grant = try Grant(
            json: CanonicalJSON.parse(
                Array(
                    try Data(contentsOf: Self.example.appendingPathComponent("inputs/2026-09-21T100000Z/" + grantFile)))
            ))
        #expect(
            entry(of: "omar", at: "2026-09-21T10:05:00Z")?.contains(
                #""authorizedBy":"recovery-unban:\#(grant.ref.hex)""#) == true)
    }

    static func actorBinding(_ name: String) -> String {
        let table = try! String(contentsOf: example.appendingPathComponent("actors.tsv"), encoding: .utf8)
        return String(table.split(separator: "\n").first { $0.hasPrefix(name + "\t") }!.split(separator: "\t")[2])
    }
}

/// The README's quickstart, run as written (its `sh` block, with `onym-ledger` on PATH) in an
/// empty folder: a new vendor's ledger with a mandate, a verdict and a write that verifies.
@Suite("README quickstart")
struct QuickstartTests {
    @Test func theQuickstartRunsAsWrittenAndVerifies() throws {
        let readme = try String(
            contentsOf: ExampleLedgerTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Quickstart"))
        let rest = readme[section.upperBound...]
        let open = try #require(rest.range(of: "```sh\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        var script = String(rest[open.upperBound..<close.lowerBound])
        #expect(script.contains("E=ledger-example/inputs"))
        script = script.replacingOccurrences(
            of: "E=ledger-example/inputs", with: "E=" + ExampleLedgerTests.example.appendingPathComponent("inputs").path
        )
        let scratch = ScratchDirectory()
        let bin = scratch.path("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/onym-ledger", withDestinationPath: CLI.binary)
        let result = runProcess(
            "bash", ["-euo", "pipefail", "-c", script], cwd: scratch.url,
            environment: [
                "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                "XDG_STATE_HOME": scratch.path("state"),
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("VERIFIED onym:component:onym-chat"), "\(result.stdout)")
        #expect(
            result.stdout.contains("12 mandate, 2 manifest, 1 profile, 1 receipt, 1 verdict, 1 write-log-entry"),
            "\(result.stdout)")
        #expect(result.stdout.contains("write log:    1 entries"), "\(result.stdout)")
    }
}
