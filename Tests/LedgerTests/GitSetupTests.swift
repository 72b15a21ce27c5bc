import Foundation
import Testing

@testable import LedgerFormat

/// Readable diffs: `textconv` renders ledger files for git, and `git-setup` makes a clone of the
/// example read as a story in stock `git log -p` with every commit's signature marked good.
@Suite("Readable diffs with stock git")
struct GitSetupTests {
    @Test func aSetUpCloneReadsAsAStoryAndEveryCommitIsGood() throws {
        let scratch = ScratchDirectory()
        let clone = scratch.path("clone")
        let example = ExampleLedgerTests.example.appendingPathComponent("ledger.git").path
        #expect(runProcess("git", ["clone", "-q", example, clone]).status == 0)
        let setup = CLI.run(["git-setup", clone])
        #expect(setup.status == 0, "\(setup.stderr)")
        // The last 40 batches (textconv runs once per file version: the whole history would take a minute).
        let story = runProcess("git", ["-C", clone, "log", "-p", "-n", "40", "--format=== %s"])
        #expect(story.status == 0)
        #expect(story.stdout.contains("# onym-ledger: write-log entry "))
        #expect(story.stdout.contains("# onym-ledger: verdict"))
        #expect(story.stdout.contains("# onym-ledger: receipt"))
        #expect(story.stdout.contains("# content address "))
        #expect(story.stdout.contains("# checkpoint of onym-chat-enforcement: "))
        #expect(story.stdout.contains("+  \"decidedAt\": "))
        // After a record's JSON, what it says: its kind's reading, a `label: value` line a fact.
        #expect(story.stdout.contains("\n+Verdict in case "))
        #expect(story.stdout.contains("\n+  Decided at: "))
        #expect(story.stdout.contains("\n+Receipt for verdict "))
        // The first commit: the descriptor, the allowed signers and the profile.
        let root = runProcess("git", ["-C", clone, "rev-list", "--max-parents=0", "HEAD"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let first = runProcess("git", ["-C", clone, "show", root])
        #expect(first.stdout.contains("# onym-ledger: ledger descriptor onym-chat-enforcement"))
        #expect(first.stdout.contains("# onym-ledger: allowed commit signers"))
        #expect(first.stdout.contains("# onym-ledger: profile"))
        let commits = Int(
            runProcess("git", ["-C", clone, "rev-list", "--count", "HEAD"]).stdout.trimmingCharacters(
                in: .whitespacesAndNewlines))!
        let signatures = runProcess("git", ["-C", clone, "log", "--show-signature", "--format=%h"])
        let good = signatures.stdout.components(separatedBy: "Good \"git\" signature").count - 1
        #expect(good == commits, "\(signatures.stderr.prefix(400))")
    }

    /// A write-log entry's JSON with the given bits (a made-up but well-formed entry).
    /// Run as a bare name found on `PATH` (the way a user types it), `git-setup` writes the running binary's
    /// absolute path into the clone's textconv: `git log -p` then works from any folder, not only from the
    /// folder `git-setup` ran in.
    @Test func textconvNamesTheRunningBinaryWhenFoundOnPath() throws {
        let scratch = ScratchDirectory()
        let clone = scratch.path("clone")
        let elsewhere = scratch.path("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let example = ExampleLedgerTests.example.appendingPathComponent("ledger.git").path
        #expect(runProcess("git", ["clone", "-q", example, clone]).status == 0)
        let folder = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path
        let path = folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let setup = runProcess(
            "onym-ledger", ["git-setup", clone], cwd: URL(fileURLWithPath: elsewhere), environment: ["PATH": path])
        #expect(setup.status == 0, "\(setup.stderr)")
        let textconv = runProcess("git", ["-C", clone, "config", "diff.onym-ledger.textconv"]).stdout
        let written = textconv.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!written.contains(elsewhere), "git-setup wrote the folder it ran in: \(written)")
        let binary = written.split(separator: "'").first.map(String.init) ?? ""
        #expect(
            binary == "onym-ledger" || FileManager.default.isExecutableFile(atPath: binary),
            "textconv names no runnable binary: \(written)")
        let story = runProcess("git", ["-C", clone, "log", "-p", "-n", "2", "--format=== %s"])
        #expect(story.status == 0 && story.stdout.contains("# onym-ledger: "), "\(story.stderr)")
    }

    private static func writeLogEntry(caseOpen: Bool, banned: Bool) -> [UInt8] {
        CanonicalJSON.encode(
            JSONObject([
                ("sequence", .integer(1)), ("recordedAt", .string("2026-08-10T01:00:00Z")),
                ("deviceBinding", .string("enrollment:device-0")), ("authorizedBy", .string("reconciliation")),
                ("caseOpen", .bool(caseOpen)), ("banned", .bool(banned)), ("outcome", .string("ok")),
                ("previousHash", .string("genesis")), ("entryHash", .string(String(repeating: "a", count: 64))),
            ]))
    }

    /// The bits in a write-log entry's header are the entry's `caseOpen` and `banned` fields in the order
    /// `gate --apple-bits` reads them (profile §4: bit0 case-open, bit1 banned; `01` is case-open): read
    /// back the way the CLI reads bits, they give the JSON fields, for every one of the four values.
    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func textconvWritesBitsAsTheGateReadsThem(caseOpen: Bool, banned: Bool) throws {
        let scratch = ScratchDirectory()
        let entry = scratch.path("entry.json")
        try Data(Self.writeLogEntry(caseOpen: caseOpen, banned: banned)).write(to: URL(fileURLWithPath: entry))
        let rendered = CLI.run(["textconv", entry])
        #expect(rendered.status == 0)
        let prefix = "# onym-ledger: write-log entry 1, bits "
        let header = try #require(rendered.stdout.split(separator: "\n").first.map(String.init))
        #expect(header.hasPrefix(prefix), "\(header)")
        let bits = try #require(DeviceBits(String(header.dropFirst(prefix.count))), "\(header)")
        #expect(bits.caseOpen == caseOpen && bits.banned == banned, "\(header)")
        if caseOpen && !banned { #expect(header == prefix + "01") }
        if banned && !caseOpen { #expect(header == prefix + "10") }
    }

    @Test func textconvIsStableAndTotal() throws {
        let scratch = ScratchDirectory()
        let entry = scratch.path("entry.json")
        try Data(Self.writeLogEntry(caseOpen: true, banned: false)).write(to: URL(fileURLWithPath: entry))
        let first = CLI.run(["textconv", entry])
        #expect(first.status == 0)
        #expect(first.stdout.hasPrefix("# onym-ledger: write-log entry 1, bits 01\n"))
        #expect(first.stdout.contains("# recordedAt: 2026-08-10T01:00:00Z\n{\n  \"authorizedBy\": \"reconciliation\","))
        #expect(CLI.run(["textconv", entry]).stdout == first.stdout)
        // Bytes that are no ledger file pass through unchanged.
        let other = scratch.path("other")
        try Data([0x01, 0x02, 0x41]).write(to: URL(fileURLWithPath: other))
        let passed = CLI.run(["textconv", other])
        #expect(passed.status == 0)
        #expect(passed.stdout == "\u{01}\u{02}A")
    }
}
