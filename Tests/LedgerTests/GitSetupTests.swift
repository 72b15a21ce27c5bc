import Foundation
import Testing

@testable import LedgerFormat

/// Issue 16, readable diffs: `textconv` renders ledger files for git, and `git-setup` makes a clone of the
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

    @Test func textconvIsStableAndTotal() throws {
        let scratch = ScratchDirectory()
        let entry = scratch.path("entry.json")
        let bytes = CanonicalJSON.encode(
            JSONObject([
                ("sequence", .integer(1)), ("recordedAt", .string("2026-08-10T01:00:00Z")),
                ("deviceBinding", .string("enrollment:device-0")), ("authorizedBy", .string("reconciliation")),
                ("caseOpen", .bool(true)), ("banned", .bool(false)), ("outcome", .string("ok")),
                ("previousHash", .string("genesis")), ("entryHash", .string(String(repeating: "a", count: 64))),
            ]))
        try Data(bytes).write(to: URL(fileURLWithPath: entry))
        let first = CLI.run(["textconv", entry])
        #expect(first.status == 0)
        #expect(first.stdout.hasPrefix("# onym-ledger: write-log entry 1, bits 10\n"))
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
