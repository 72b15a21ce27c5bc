import Foundation
import Testing

@testable import LedgerFormat
import LedgerStore

/// The one read model: What `LedgerSnapshot` reads from the example ledger is checked against
/// stock git reading the same repository (`git ls-tree`, `git diff-tree`, `git show`), not against the
/// code's own walk.
@Suite("Ledger snapshot: the one read model, checked against stock git")
struct LedgerSnapshotTests {
    static let gitDirectory = ExampleLedgerTests.example.appendingPathComponent("ledger.git").path

    static func git(_ arguments: [String]) -> String {
        let result = runProcess("git", ["--git-dir", gitDirectory] + arguments)
        precondition(result.status == 0, result.stderr)
        return result.stdout
    }

    static func tip() throws -> (Repository, ObjectID) {
        let repository = try Repository.open(gitDirectory)
        let tip = try #require(try repository.referenceTarget(LedgerLayout.branch))
        return (repository, tip)
    }

    @Test func recordsAndRootFilesAreWhatGitLists() throws {
        let (repository, tip) = try Self.tip()
        let snapshot = try LedgerSnapshot(repository: repository, tip: tip)
        let listed = Self.git(["ls-tree", "-r", "--name-only", tip.hex]).split(separator: "\n")
        let mandatePaths = listed.filter { $0.hasPrefix("batches/") && $0.contains("/mandates/") }
        #expect(!mandatePaths.isEmpty)
        // Every mandate git lists decodes, and the snapshot finds each by its content address.
        let mandates = try snapshot.all(Mandate.self)
        #expect(mandates.count == mandatePaths.count)
        for mandate in mandates {
            #expect(try snapshot.record(Mandate.self, mandate.address)?.address == mandate.address)
        }
        #expect(snapshot.index.count == listed.filter { $0.hasPrefix("batches/") }.count)
        // The descriptor and the signers are the bytes git shows.
        let descriptorText = Self.git(["show", "\(tip.hex):\(LedgerLayout.descriptorPath)"])
        let descriptor = try snapshot.descriptor()
        #expect(CanonicalJSON.encode(descriptor.json) == Array(descriptorText.utf8))
        let signersText = Self.git(["show", "\(tip.hex):\(LedgerLayout.allowedSignersPath)"])
        #expect(try snapshot.allowedSigners() == AllowedSigners(text: signersText))
        // A record the ledger does not hold is absent, not an error.
        #expect(try snapshot.record(Mandate.self, SHA256.hash(Array("absent".utf8))) == nil)
    }

    @Test func lastWrittenBitsFollowTheLogGitShows() throws {
        let (repository, tip) = try Self.tip()
        let snapshot = try LedgerSnapshot(repository: repository, tip: tip)
        let trailers = try #require(snapshot.trailers)
        // An independent fold: every log entry git lists, in name order, the last successful write wins.
        var expected: [WireString: DeviceBits] = [:]
        let paths = Self.git(["ls-tree", "-r", "--name-only", tip.hex, "log/"]).split(separator: "\n").sorted()
        #expect(Int64(paths.count) == trailers.logSize)
        for path in paths {
            let object = try CanonicalJSON.parse(Array(Self.git(["show", "\(tip.hex):\(path)"]).utf8))
            guard case .string("ok")? = object["outcome"], case .string(let binding)? = object["deviceBinding"],
                case .bool(let caseOpen)? = object["caseOpen"], case .bool(let banned)? = object["banned"]
            else { continue }
            expected[WireString(binding)] = DeviceBits(caseOpen: caseOpen, banned: banned)
        }
        #expect(!expected.isEmpty)
        #expect(try snapshot.lastWrittenBits(upTo: trailers.logSize) == expected)
        #expect(try snapshot.logEntry(trailers.logSize)?.sequence == trailers.logSize)
        #expect(try snapshot.logEntry(trailers.logSize + 1) == nil)
    }

    /// The file-level diff every reader uses is `git diff-tree -r` for each commit of the example — every
    /// commit stock `git rev-list` lists, so a walk that stops early (or lists nothing) fails here.
    @Test func theDiffIsGitsDiffForEveryCommit() throws {
        let (repository, tip) = try Self.tip()
        let history = try repository.history(from: tip)
        let listed = Self.git(["rev-list", tip.hex]).split(separator: "\n").map(String.init)
        #expect(listed.count > 100)
        #expect(history.count == listed.count)
        #expect(Set(history.map(\.hex)) == Set(listed))
        for id in history {
            let commit = try repository.commit(id)
            let parentTree = try commit.parents.first.map { try repository.commit($0).tree }
            let ours = try repository.diffTrees(old: parentTree, new: commit.tree).map { change in
                let letter =
                    switch change.kind {
                    case .added: "A"
                    case .modified: "M"
                    case .deleted: "D"
                    }
                return "\(letter)\t\(change.path)"
            }
            let arguments =
                ["diff-tree", "-r", "--no-commit-id", "--name-status"] + (commit.parents.isEmpty ? ["--root"] : [])
            let stock = Self.git(arguments + [id.hex]).split(separator: "\n").map(String.init)
            #expect(ours.sorted() == stock.sorted(), "commit \(id.short)")
        }
    }

    @Test func aFileReplacedByAFolderIsADeletionAndAdditions() throws {
        let scratch = ScratchDirectory()
        let path = scratch.path("repo")
        #expect(runProcess("git", ["init", "-q", path]).status == 0)
        func commit(_ setup: String) -> ObjectID {
            let result = runProcess(
                "sh",
                [
                    "-c",
                    "cd \(path) && \(setup) && git add -A && git -c user.name=t -c user.email=t@t commit -qm x "
                        + "&& git rev-parse HEAD",
                ])
            precondition(result.status == 0, result.stderr)
            return ObjectID(hexString: result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))!
        }
        let first = commit("echo one > a && echo keep > b")
        let second = commit("rm a && mkdir a && echo two > a/x && echo three > a/y")
        let repository = try Repository.open(path)
        let changes = try repository.diffTrees(
            old: try repository.commit(first).tree, new: try repository.commit(second).tree)
        let listed = changes.map { "\($0.kind) \($0.path)" }.sorted()
        #expect(listed == ["added a/x", "added a/y", "deleted a"])
    }

    /// The record index names each record's blob as stock git lists it, and a lookup through an entry that
    /// names the wrong blob finds the right record (by its path) or nothing — never the record the blob holds.
    @Test func aWrongBlobInTheIndexNeverPassesForTheRecord() throws {
        let (repository, tip) = try Self.tip()
        let snapshot = try LedgerSnapshot(repository: repository, tip: tip)
        let listing = Self.git(["ls-tree", "-r", tip.hex, "batches/"]).split(separator: "\n").map {
            line -> (path: String, blob: String) in
            let fields = line.split(separator: "\t", maxSplits: 1)
            return (String(fields[1]), String(fields[0].split(separator: " ")[2]))
        }
        let gitBlobs = Dictionary(uniqueKeysWithValues: listing.map { ($0.path, $0.blob) })
        let mandates = try snapshot.all(Mandate.self)
        try #require(mandates.count >= 2)
        for mandate in mandates {
            let location = try #require(snapshot.index.location(of: .init(Mandate.self, mandate.address)))
            let path = LedgerLayout.recordPath(Mandate.self, mandate.address, batch: Int64(location.batch))
            #expect(gitBlobs[path] == location.blob.hex)
        }

        let (first, second) = (mandates[0], mandates[1])
        let secondBlob = try #require(snapshot.index.location(of: .init(Mandate.self, second.address))).blob
        let firstBatch = Int64(try #require(snapshot.index.batch(of: Mandate.self, first.address)))
        let missingBlob = try #require(ObjectID(rawBytes: Array(repeating: 0xAB, count: 20)))
        let commit = try repository.commit(tip)
        func lookUp(_ address: ContentAddress, batch: Int64, blob: ObjectID) throws -> Mandate? {
            var index = RecordIndex()
            index.insert(.init(Mandate.self, address), .init(batch: batch, blob: blob))
            return try RecordLookup(repository: repository, tree: commit.tree).record(
                Mandate.self, address, index: index)
        }
        // Another record's blob, or a blob the repository lacks: the path in the tree finds the right one.
        #expect(try lookUp(first.address, batch: firstBatch, blob: secondBlob)?.address == first.address)
        #expect(try lookUp(first.address, batch: firstBatch, blob: missingBlob)?.address == first.address)
        // Another record's blob and a batch that does not hold the record: nothing.
        #expect(try lookUp(first.address, batch: LedgerLayout.maxBatch, blob: secondBlob) == nil)
        let absent = SHA256.hash(Array("absent".utf8))
        #expect(try lookUp(absent, batch: firstBatch, blob: secondBlob) == nil)
    }

    @Test func storedBytesAreTheRecordsOwnWhenTheIndexNamesTheirBlobElseTheTreesAtItsPath() throws {
        let (repository, tip) = try Self.tip()
        let snapshot = try LedgerSnapshot(repository: repository, tip: tip)
        let mandates = try snapshot.all(Mandate.self)
        try #require(mandates.count >= 2)
        let (first, second) = (mandates[0], mandates[1])
        // The blob id is the one stock git gives the same bytes.
        let hashed = runProcess("sh", ["-c", "printf '%s' \"$0\" | git hash-object --stdin", "a ledger record"])
        #expect(
            try Repository.blobID(of: Array("a ledger record".utf8)).hex
                == hashed.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        let firstPath = LedgerLayout.recordPath(
            Mandate.self, first.address, batch: try #require(snapshot.index.batch(of: Mandate.self, first.address)))
        let stored = Array(Self.git(["show", "\(tip.hex):\(firstPath)"]).utf8)
        #expect(try snapshot.storedBytes(like: first) == stored)

        func storedBytes(batch: Int64, blob: ObjectID) throws -> [UInt8]? {
            var index = RecordIndex()
            index.insert(.init(Mandate.self, first.address), .init(batch: batch, blob: blob))
            return try LedgerSnapshot(repository: repository, tip: tip, index: index).storedBytes(like: first)
        }
        let firstBatch = try #require(snapshot.index.batch(of: Mandate.self, first.address))
        let secondBlob = try #require(snapshot.index.location(of: .init(Mandate.self, second.address))).blob
        // Another record's blob: the bytes at the record's path in the tree.
        #expect(try storedBytes(batch: firstBatch, blob: secondBlob) == stored)
        // Another record's blob and a batch that does not hold the record: nothing stored.
        #expect(try storedBytes(batch: LedgerLayout.maxBatch, blob: secondBlob) == nil)
    }

    /// The lookup keeps what it read lately in two generations: a record read again soon is served without
    /// the repository (here: with no tree to read from), one not read for `limit` other records is not.
    @Test func theLookupCacheKeepsRecentRecordsAndDropsOldOnes() throws {
        let (repository, tip) = try Self.tip()
        let snapshot = try LedgerSnapshot(repository: repository, tip: tip)
        let mandates = try snapshot.all(Mandate.self).map(\.address)
        try #require(mandates.count >= 4)
        let lookup = RecordLookup(
            repository: repository, tree: try repository.commit(tip).tree, cache: RecordCache(limit: 4))
        func read(_ address: ContentAddress) throws -> Bool {
            try lookup.record(Mandate.self, address, index: snapshot.index) != nil
        }
        for address in mandates.prefix(4) { #expect(try read(address)) }
        lookup.tree = nil
        // Mandates 2 and 3 are the recent generation, 0 and 1 the older one; reading 0 moves it back.
        #expect(try read(mandates[0]))
        #expect(try read(mandates[3]))
        // The recent generation was full: 0 started a new one, so 2 and 3 are older now and 1 is gone.
        #expect(try !read(mandates[1]))
        #expect(try read(mandates[2]))
    }
}
