import Foundation
import LedgerTestSupport
import Testing

import LedgerStore
@testable import LedgerVerifier

/// An incremental run walks back from the tip only to the verified tip it continues from; every other run
/// walks to the root (docs/VERIFY.md, "Incremental runs"; docs/DECISIONS.md, "An incremental run does not
/// read the history below its checkpoint again").
@Suite("verify: the walk back to the verified tip")
struct IncrementalWalkTests {
    static let at = ["--at", "2026-09-01T00:00:00Z"]

    /// The first-parent chain of the good fixture, oldest first, as stock git lists it.
    static func chainByGit(_ ledger: String) -> [ObjectID] {
        let listed = runProcess(
            "git", ["--git-dir", ledger, "rev-list", "--first-parent", "--reverse", "refs/heads/main"])
        return listed.stdout.split(separator: "\n").compactMap { ObjectID(hexString: String($0)) }
    }

    @Test func aWalkStopsAtAVerifiedTipAndGoesOnToTheRootWhenAsked() throws {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let repository = try Repository.open(ledger)
        let commits = Self.chainByGit(ledger)
        try #require(commits.count >= 4)
        let tip = commits.last!

        let whole = try CommitChain(repository: repository, tip: tip)
        #expect(whole.ids == commits)
        #expect(whole.reachesRoot)

        let verified = commits[2]
        var partial = try CommitChain(
            repository: repository, tip: tip,
            stoppingAt: [verified, ObjectID(hexString: String(repeating: "0", count: 40))!])
        #expect(partial.ids == Array(commits[3...]))
        #expect(partial.base == verified)
        #expect(!partial.reachesRoot)
        #expect(partial.contains(verified) && partial.contains(tip) && !partial.contains(commits[1]))
        #expect(partial.commits(after: verified) == Array(commits[3...]))
        #expect(partial.count(through: tip) == nil)

        try partial.extendToRoot(repository)
        #expect(partial.ids == commits)
        #expect(partial.reachesRoot)
        #expect(partial.count(through: tip) == commits.count)
        #expect(partial.commits(after: verified) == Array(commits[3...]))

        let atTip = try CommitChain(repository: repository, tip: tip, stoppingAt: [tip])
        #expect(atTip.ids.isEmpty && atTip.base == tip)
    }

    /// The ledger's objects loose (its packs unpacked), so one object can be taken away.
    static func loosen(_ ledger: String) throws {
        let packs = ledger + "/objects/pack"
        for name in try FileManager.default.contentsOfDirectory(atPath: packs) where name.hasSuffix(".pack") {
            let moved = NSTemporaryDirectory() + UUID().uuidString + ".pack"
            try FileManager.default.moveItem(atPath: packs + "/" + name, toPath: moved)
            try FileManager.default.removeItem(atPath: packs + "/" + name.dropLast(5) + ".idx")
            let unpacked = runProcess("sh", ["-c", "git --git-dir \"$0\" unpack-objects -q < \"$1\"", ledger, moved])
            try #require(unpacked.status == 0, "\(unpacked.stderr)")
            try FileManager.default.removeItem(atPath: moved)
        }
    }

    @Test func anIncrementalRunReadsNothingBelowItsCheckpointAndAnyOtherRunReadsItAll() throws {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let home = ["XDG_STATE_HOME": scratch.path("xdg")]
        let trust = ["--trust", TamperCorpusTests.trust]
        let first = CLI.run(["verify", ledger, "--json"] + trust + Self.at, environment: home)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")

        // The root commit's object is gone: only a run that reads the history below the checkpoint sees it.
        try Self.loosen(ledger)
        let root = Self.chainByGit(ledger)[0].hex
        try FileManager.default.removeItem(atPath: "\(ledger)/objects/\(root.prefix(2))/\(root.dropFirst(2))")

        let incremental = CLI.run(["verify", ledger, "--json"] + Self.at, environment: home)
        #expect(incremental.status == 0, "\(incremental.stdout)\(incremental.stderr)")
        #expect(incremental.stdout.contains("\"commitsChecked\":0"))

        let full = CLI.run(["verify", ledger, "--full", "--json"] + Self.at, environment: home)
        #expect(full.status == 65, "\(full.stdout)\(full.stderr)")
        #expect(full.stderr.contains(root))

        // Without the checkpoint's conduct findings the run cannot continue from it: it reads everything.
        let folder = try #require(
            (try? JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])?["stateFolder"]
                as? String)
        try FileManager.default.removeItem(atPath: folder + "/conduct.json")
        let withoutFindings = CLI.run(["verify", ledger, "--json"] + Self.at, environment: home)
        #expect(withoutFindings.status == 65, "\(withoutFindings.stdout)\(withoutFindings.stderr)")
        #expect(withoutFindings.stderr.contains(root))
    }
}
