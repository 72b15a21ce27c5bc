import Foundation
import Testing

@testable import LedgerStore
@testable import LedgerVerifier
@testable import LedgerWriter

/// The verifier's walk of a commit joins trees on their bytes (`RawTree`): checked against libgit2's own
/// join of the same objects (`Repository.changedEntries`, over trees libgit2 parsed) on random tree pairs,
/// and against stock `git diff-tree` on every commit of the example, walked by one loader in history's
/// order so that its old trees come from the ones it kept (`KeptTrees`).
@Suite("Raw tree join")
struct RawTreeTests {
    /// Random pairs of trees — names from bytes that sort around `/`, every kind of mode, a file and a
    /// folder of one name, most entries shared — give libgit2's changes, entry for entry.
    @Test func theJoinIsLibgit2sOnRandomTreePairs() throws {
        let scratch = ScratchDirectory()
        let repository = try Repository.initBare(scratch.path("repo"))
        var random = SeededGenerator(state: 20_261_203)  // the same trees on every run
        let alphabet: [UInt8] = [0x2D, 0x2E, 0x30, 0x61]  // '-', '.', '0', 'a'
        let modes: [UInt32] = [0o040000, 0o100644, 0o100755, 0o120000, 0o160000]
        var outcomes: [String: Int] = [:]
        for _ in 0..<1_500 {
            func entry() -> Entry {
                let name = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    alphabet.randomElement(using: &random)!
                }
                let mode = Int.random(in: 0..<3, using: &random) == 0 ? modes.randomElement(using: &random)! : 0o100644
                return Entry(name: name, mode: mode, id: UInt8.random(in: 0...3, using: &random))
            }
            let old = Self.unique((0..<Int.random(in: 0...12, using: &random)).map { _ in entry() })
            var new = old.filter { _ in Int.random(in: 0..<6, using: &random) > 0 }
            for index in new.indices where Int.random(in: 0..<6, using: &random) == 0 {
                new[index].id &+= 1
            }
            for index in new.indices where Int.random(in: 0..<10, using: &random) == 0 {
                new[index].mode = modes.randomElement(using: &random)!
            }
            new = Self.unique(new + (0..<Int.random(in: 0...4, using: &random)).map { _ in entry() })
            let oldID = try repository.writeRawTreeBytes(Self.bytes(old))
            let newID = try repository.writeRawTreeBytes(Self.bytes(new))
            let expected = try repository.changedEntries(old: oldID, new: newID).map(Self.shown)
            let oldTree = try #require(RawTree(reading: Self.bytes(old)))
            let newTree = try #require(RawTree(reading: Self.bytes(new)))
            let found = RawTree.changes(old: oldTree, new: newTree).map(Self.shown)
            #expect(found == expected, "\(old) → \(new)")
            outcomes[
                expected.isEmpty ? "same" : found.contains { $0.hasPrefix("~") } ? "changed" : "added or removed",
                default: 0] += 1
        }
        // Every outcome was reached: trees alike, entries changed in place, entries only on one side.
        #expect(outcomes["same", default: 0] > 50)
        #expect(outcomes["changed", default: 0] > 300)
        #expect(outcomes["added or removed", default: 0] > 100, "\(outcomes)")
    }

    /// Where both trees begin with the same bytes, the join passes over those entries and reports only what
    /// follows: an append to a folder of a thousand files reports the appended ones.
    @Test func anAppendToALargeFolderReportsOnlyTheAppendedEntries() throws {
        let earlier = (0..<1_000).map {
            Entry(name: Array(String(format: "%04d.json", $0).utf8), mode: 0o100644, id: 7)
        }
        let later =
            earlier
            + (1_000..<1_003).map { Entry(name: Array(String(format: "%04d.json", $0).utf8), mode: 0o100644, id: 9) }
        let before = try #require(RawTree(reading: Self.bytes(earlier)))
        let after = try #require(RawTree(reading: Self.bytes(later)))
        let changes = RawTree.changes(old: before, new: after)
        #expect(changes.allSatisfy { $0.old == nil })
        #expect(changes.map { $0.new?.name } == ["1000.json", "1001.json", "1002.json"])
        #expect(RawTree.commonPrefix(Self.bytes(earlier), Self.bytes(later)) == Self.bytes(earlier).count)
    }

    /// What libgit2's tree parser refuses is not read as a tree: an entry cut short, a mode that is not
    /// octal digits, a missing mode.
    @Test func malformedTreesAreNotRead() {
        let good = Self.bytes([Entry(name: Array("a".utf8), mode: 0o100644, id: 1)])
        #expect(RawTree(reading: good) != nil)
        #expect(RawTree(reading: []) != nil)
        #expect(RawTree(reading: Array(good.dropLast())) == nil)
        #expect(RawTree(reading: Array("10064x a".utf8) + [0] + [UInt8](repeating: 1, count: 20)) == nil)
        #expect(RawTree(reading: Array(" a".utf8) + [0] + [UInt8](repeating: 1, count: 20)) == nil)
        #expect(RawTree(reading: Array("100644 a".utf8)) == nil)
    }

    /// The loader's changed files for every commit of the example are `git diff-tree -r`'s, walked by one
    /// loader in history's order: the old side of each folder a commit changes is the tree the loader kept
    /// from the commit before, so this fails both when the join is wrong and when keeping is.
    @Test func theLoaderWalkIsGitsDiffForEveryCommit() throws {
        let loader = CommitLoader(
            repository: try Repository.open(LedgerSnapshotTests.gitDirectory), clock: PhaseClock())
        let history = CommitReadAheadTests.gitHistory()
        #expect(history.count > 100)
        for id in history {
            let read = try loader.read(id)
            let ours = read.changes.filter { $0.objectKind == .blob }.map { "\($0.kind) \($0.path)" }
            let root = read.parentTree == nil ? ["--root"] : []
            let named = ["A": "added", "M": "modified", "D": "deleted"]
            let stock = LedgerSnapshotTests.git(
                ["diff-tree", "-r", "--no-commit-id", "--name-status"] + root + [id.hex]
            )
            .split(separator: "\n").map { line in
                let fields = line.split(separator: "\t", maxSplits: 1)
                return "\(named[String(fields[0])] ?? String(fields[0])) \(fields[1])"
            }
            #expect(ours.sorted() == stock.sorted(), "commit \(id.short)")
            #expect(read.anomalies.isEmpty)
        }
        #expect(loader.trees.hits > history.count, "the old trees came from the ones kept")
    }

    // MARK: - Trees written for the tests

    struct Entry: CustomStringConvertible {
        var name: [UInt8]
        var mode: UInt32
        var id: UInt8
        var isTree: Bool { mode == 0o040000 }
        var description: String { "\(String(mode, radix: 8)) \(String(decoding: name, as: UTF8.self))@\(id)" }
    }

    /// In git's order (a folder's name as if it ended in `/`), one entry per name and kind.
    static func unique(_ entries: [Entry]) -> [Entry] {
        func key(_ entry: Entry) -> [UInt8] { entry.name + (entry.isTree ? [0x2F] : [0]) }
        var seen: Set<[UInt8]> = []
        return entries.filter { seen.insert(key($0)).inserted }.sorted { key($0).lexicographicallyPrecedes(key($1)) }
    }

    static func bytes(_ entries: [Entry]) -> [UInt8] {
        entries.flatMap {
            Array("\(String($0.mode, radix: 8)) ".utf8) + $0.name + [0] + [UInt8](repeating: $0.id, count: 20)
        }
    }

    /// A change as `+name`, `-name` or `~name`, with the ids, modes and kinds of its sides.
    static func shown(_ change: (old: TreeEntry?, new: TreeEntry?)) -> String {
        func side(_ entry: TreeEntry) -> String {
            "\(entry.name) \(String(entry.mode, radix: 8)) \(entry.kind) \(entry.id.short)"
        }
        switch (change.old, change.new) {
        case (nil, let new?): return "+" + side(new)
        case (let old?, nil): return "-" + side(old)
        case (let old?, let new?): return "~" + side(old) + " → " + side(new)
        case (nil, nil): return "?"
        }
    }
}
