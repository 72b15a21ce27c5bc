import Foundation
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier

/// Full verify reads commit N+1 on a thread of its own while commit N is judged. The read-ahead must hand
/// over exactly what reading on the judging thread gives, in history's order (as stock git lists it),
/// surface a git error at the commit it belongs to, and stop without hanging: each test runs under a
/// watchdog (``failingIfHung(after:sourceLocation:_:)``), so a reader that waits forever fails the test.
@Suite("Reading commits ahead of the policies")
struct CommitReadAheadTests {
    static let gitDirectory = LedgerSnapshotTests.gitDirectory

    /// The example's commits, oldest first, as stock git lists them.
    static func gitHistory() -> [ObjectID] {
        let listed = runProcess("git", ["--git-dir", gitDirectory, "rev-list", "--reverse", "refs/heads/main"])
        precondition(listed.status == 0, listed.stderr)
        return listed.stdout.split(separator: "\n").map { ObjectID(hexString: String($0))! }
    }

    @Test func handsOverWhatTheJudgingThreadWouldReadInHistorysOrder() async throws {
        await failingIfHung { try Self.handsOverWhatTheJudgingThreadWouldRead() }
    }

    static func handsOverWhatTheJudgingThreadWouldRead() throws {
        let ids = Self.gitHistory()
        #expect(ids.count > 100)
        let loader = CommitLoader(repository: try Repository.open(gitDirectory), clock: PhaseClock())
        let ahead = CommitReadAhead(path: Self.gitDirectory, ids: ids, descriptor: nil)
        defer { ahead.stop() }
        for id in ids {
            let early = try ahead.next()
            let here = try loader.read(id)
            #expect(early.commit.id == id)
            #expect(early.parentTree == here.parentTree)
            #expect(early.changes.map(\.path) == here.changes.map(\.path))
            #expect(early.files.map(\.path) == here.files.map(\.path))
            #expect(early.files.map(\.sha256) == here.files.map(\.sha256))
            #expect(early.files.map(\.bytes) == here.files.map(\.bytes))
            #expect(early.leafHashes == here.leafHashes)
            #expect(Self.validity(early.signature) == Self.validity(here.signature))
            #expect(Self.validity(early.signature) == true)
        }
        #expect(throws: GitError.self) { try ahead.next() }
    }

    static func validity(_ signature: CommitSignature) -> Bool? {
        if case .parsed(_, _, let isValid) = signature { return isValid }
        return nil
    }

    @Test func aCommitThatCannotBeReadFailsAtItsPlaceInTheOrder() async throws {
        await failingIfHung { () throws in
            let ids = Array(Self.gitHistory().prefix(3))
            let missing = ObjectID(hexString: String(repeating: "ab", count: 20))!
            let ahead = CommitReadAhead(path: Self.gitDirectory, ids: ids + [missing] + ids, descriptor: nil)
            defer { ahead.stop() }
            for id in ids { #expect(try ahead.next().commit.id == id) }
            #expect(throws: GitError.self) { try ahead.next() }
            // Nothing after the failure is read.
            #expect(throws: GitError.self) { try ahead.next() }
        }
    }

    /// Stopped after `taken` commits, the reader returns (twice over), and what it still hands over is at
    /// most the `depth` commits it had read ahead, in order — then it says it has read past the last one.
    /// A reader that did not stop would go on handing over the rest of the history.
    @Test(arguments: [0, 1, 5])
    func stoppingEarlyEndsTheThreadAndReturns(taken: Int) async throws {
        await failingIfHung { () throws in
            let ids = Self.gitHistory()
            let depth = 2
            try #require(ids.count > taken + depth)
            let ahead = CommitReadAhead(path: Self.gitDirectory, ids: ids, descriptor: nil, depth: depth)
            for id in ids.prefix(taken) { #expect(try ahead.next().commit.id == id) }
            ahead.stop()
            ahead.stop()
            var handedAfterStop: [ObjectID] = []
            while let read = try? ahead.next(), handedAfterStop.count <= depth {
                handedAfterStop.append(read.commit.id)
            }
            #expect(handedAfterStop.count <= depth, "read \(handedAfterStop.count) commits after stop()")
            #expect(handedAfterStop == Array(ids[taken..<(taken + handedAfterStop.count)]))
            #expect(throws: GitError.self) { try ahead.next() }
        }
    }

    /// Signatures are checked ahead only while the judging thread is behind. Here it takes a commit only
    /// once the reader is held up (waiting for a free slot, or done): the first `depth` commits were handed
    /// over while slots were free, unchecked; every later one found the slots full when it was read, and
    /// comes with its files' signatures checked — but for a redemption's, whose key the reader cannot know
    /// (`SignatureForesight`).
    @Test func signaturesAreCheckedAheadOnlyWhileTheJudgingThreadIsBehind() async throws {
        await failingIfHung { () throws in
            let ids = Array(Self.gitHistory().prefix(40))
            let depth = 2
            let ahead = CommitReadAhead(path: Self.gitDirectory, ids: ids, descriptor: nil, depth: depth)
            defer { ahead.stop() }
            var checkedAhead = 0
            for (position, id) in ids.enumerated() {
                while !ahead.readerIsIdle { usleep(1_000) }
                let read = try ahead.next()
                #expect(read.commit.id == id)
                for file in read.files where file.declaration.map({ !type(of: $0).signatures.isEmpty }) == true {
                    let checked = (file.verifications?.count ?? 0) > 0
                    if position < depth {
                        #expect(!checked, "\(file.path) checked ahead while a slot was free")
                    } else if !(file.storedRecord is Redemption) {
                        #expect(checked, "\(file.path) not checked ahead")
                        checkedAhead += 1
                    }
                }
            }
            #expect(checkedAhead > 50)
        }
    }

    @Test func aPathThatIsNotARepositoryIsAnErrorNotAHang() async throws {
        await failingIfHung { () throws in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-ledger-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let ahead = CommitReadAhead(path: folder.path, ids: Self.gitHistory(), descriptor: nil)
            #expect(throws: GitError.self) { try ahead.next() }
        }
    }
}
