import Foundation
import Testing

/// Merging packs keeps the objects in the order they were written: a commit's blobs and trees lie just
/// before it, after the commit before it — so reading history reads a merged pack front to back. Checked
/// with stock git's own reading of the pack (`git verify-pack -v`) and of each commit (`git diff-tree`).
@Suite("Merged packs keep write order")
struct PackOrderTests {
    @Test func aMergedPackHoldsEachCommitsObjectsBetweenItAndTheOneBefore() throws {
        let scenario = LedgerScenario()
        // One pack per append; more than eight packs make the writer merge the smallest.
        for day in 10...22 {
            let mandate = scenario.mandate(
                binding: "enrollment:device-\(day)", acceptedAt: "2026-08-\(day)T00:00:00Z")
            scenario.append([scenario.file(mandate)], at: "2026-08-\(day)T01:00:00Z")
        }
        let git = { (arguments: [String]) -> String in
            let result = runProcess("git", ["--git-dir", scenario.ledger] + arguments)
            precondition(result.status == 0, result.stderr)
            return result.stdout
        }
        let packFolder = scenario.ledger + "/objects/pack"
        let indexes = try FileManager.default.contentsOfDirectory(atPath: packFolder).filter { $0.hasSuffix(".idx") }
        #expect(indexes.count <= 8)
        // Where each object lies, by pack.
        var offsets: [String: (pack: String, offset: Int)] = [:]
        var largest = (pack: "", count: 0)
        for index in indexes {
            let listing = git(["verify-pack", "-v", packFolder + "/" + index]).split(separator: "\n")
            var count = 0
            for line in listing {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count >= 5, fields[0].count == 40, let offset = Int(fields[4]) else { continue }
                offsets[String(fields[0])] = (index, offset)
                count += 1
            }
            if count > largest.count { largest = (index, count) }
        }
        let history = git(["rev-list", "--reverse", "refs/heads/main"]).split(separator: "\n").map(String.init)
        let merged = history.filter { offsets[$0]?.pack == largest.pack }
        try #require(merged.count >= 3, "the merged pack holds several commits")
        // Commits in history order, and each one's new blobs after the commit before it and before it.
        let commitOffsets = merged.map { offsets[$0]!.offset }
        #expect(commitOffsets == commitOffsets.sorted())
        for (earlier, later) in zip(merged, merged.dropFirst()) {
            let added = git(["diff-tree", "-r", "--no-renames", earlier, later]).split(separator: "\n").compactMap {
                line -> String? in
                let fields = line.split(separator: " ")
                return fields.count >= 5 && fields[4].hasPrefix("A") ? String(fields[3]) : nil
            }
            #expect(!added.isEmpty)
            for blob in added {
                let place = try #require(offsets[blob])
                #expect(place.pack == largest.pack)
                #expect(offsets[earlier]!.offset < place.offset && place.offset < offsets[later]!.offset)
            }
        }
    }

    /// A pack `repack` wrote holds deltas; merging it copies what it can and rebuilds the deltas' objects
    /// whole, and the result is a repository stock git finds whole and `verify` accepts.
    @Test func aRepackedPackWithDeltasMergesIntoAWholeRepository() throws {
        let scenario = LedgerScenario()
        for day in 10...14 {
            let mandate = scenario.mandate(binding: "enrollment:device-\(day)", acceptedAt: "2026-08-\(day)T00:00:00Z")
            scenario.append([scenario.file(mandate)], at: "2026-08-\(day)T01:00:00Z")
        }
        let repacked = CLI.run(["repack", scenario.ledger])
        try #require(repacked.status == 0, "\(repacked.stderr)")
        let packFolder = scenario.ledger + "/objects/pack"
        func indexes() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: packFolder).filter { $0.hasSuffix(".idx") }
        }
        let repackedIndex = try #require(try indexes().first)
        let listing = runProcess("git", ["verify-pack", "-v", packFolder + "/" + repackedIndex]).stdout
        try #require(listing.contains("chain length = 1"), "the repacked pack holds deltas")
        for day in 15...25 {
            let mandate = scenario.mandate(binding: "enrollment:device-\(day)", acceptedAt: "2026-08-\(day)T00:00:00Z")
            scenario.append([scenario.file(mandate)], at: "2026-08-\(day)T01:00:00Z")
        }
        #expect(try !indexes().contains(repackedIndex), "the repacked pack was merged")
        #expect(try indexes().count <= 8)
        let fsck = runProcess("git", ["--git-dir", scenario.ledger, "fsck", "--full", "--strict"])
        #expect(fsck.status == 0, "\(fsck.stderr)")
        let verified = CLI.run(["verify", scenario.ledger, "--trust", scenario.signer + ".pub", "--json"])
        #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
    }

    /// An object two packs hold (here: stock git wrote a second copy of a commit's objects) is written once
    /// into the merged pack, from the oldest pack, and the repository stays whole for stock git.
    @Test func anObjectTwoPacksHoldIsMergedOnce() throws {
        let scenario = LedgerScenario()
        for day in 10...12 {
            let mandate = scenario.mandate(binding: "enrollment:device-\(day)", acceptedAt: "2026-08-\(day)T00:00:00Z")
            scenario.append([scenario.file(mandate)], at: "2026-08-\(day)T01:00:00Z")
        }
        let packFolder = scenario.ledger + "/objects/pack"
        let listed = runProcess("git", ["--git-dir", scenario.ledger, "rev-list", "--objects", "HEAD~1..HEAD"])
        let copied = Set(listed.stdout.split(separator: "\n").map { String($0.prefix(40)) })
        try #require(copied.count >= 3)
        let copy = runProcess(
            "git", ["--git-dir", scenario.ledger, "pack-objects", "--no-reuse-object", packFolder + "/pack"],
            stdin: Data((copied.sorted().joined(separator: "\n") + "\n").utf8))
        try #require(copy.status == 0, "\(copy.stderr)")
        for day in 13...24 {
            let mandate = scenario.mandate(binding: "enrollment:device-\(day)", acceptedAt: "2026-08-\(day)T00:00:00Z")
            scenario.append([scenario.file(mandate)], at: "2026-08-\(day)T01:00:00Z")
        }
        let indexes = try FileManager.default.contentsOfDirectory(atPath: packFolder).filter { $0.hasSuffix(".idx") }
        #expect(indexes.count <= 8)
        // Every object once in all packs together: the copies were merged away.
        var holders: [String: Int] = [:]
        for index in indexes {
            let listing = runProcess("git", ["verify-pack", "-v", packFolder + "/" + index])
            #expect(listing.status == 0, "\(listing.stderr)")
            for line in listing.stdout.split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                if fields.count >= 5, fields[0].count == 40 { holders[String(fields[0]), default: 0] += 1 }
            }
        }
        #expect(copied.allSatisfy { holders[$0] == 1 }, "\(copied.filter { holders[$0] != 1 })")
        let fsck = runProcess("git", ["--git-dir", scenario.ledger, "fsck", "--full", "--strict"])
        #expect(fsck.status == 0, "\(fsck.stderr)")
    }
}
