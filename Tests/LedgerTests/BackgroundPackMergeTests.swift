import CLibgit2
import Foundation
import LedgerFormat
import LedgerStore
import Testing

@testable import LedgerWriter

/// An appender's pack merges are written on another thread while later batches are judged and written
/// (docs/DECISIONS.md, "Packs merge beside the next batches"). Forty batches through one appender: the packs
/// stay bounded after every batch, and once the appender is closed no pack a merge replaced is left beside
/// the pack that replaced it — every object is in exactly one pack — nothing half-written remains, stock
/// `git fsck` accepts the repository and `verify` the ledger.
@Suite("Pack merges beside the next batches")
struct BackgroundPackMergeTests {
    @Test func batchesThroughOneAppenderLeaveEveryObjectInOnePack() throws {
        let scenario = LedgerScenario()
        let key = try SigningKey.load(scenario.signer)
        let folder = scenario.ledger + "/objects/pack/"
        let files = { try FileManager.default.contentsOfDirectory(atPath: folder) }
        let appender = try Appender.open(scenario.ledger)
        var mostPacks = 0
        var mergedWhileAppending = false
        for batch in 0..<40 {
            let bytes = CanonicalJSON.encode(scenario.mandate(binding: "enrollment:device-\(batch)"))
            let item = try BatchImporter.read(bytes, source: "mandate-\(batch)")
            let at = Instant.parse("2026-08-09T00:00:00Z")!.adding(seconds: Int64(batch))
            #expect(try appender.append(items: [item], signingKey: key, at: at).commit != nil)
            let packs = try files().filter { $0.hasSuffix(".idx") }.count
            mostPacks = max(mostPacks, packs)
            if packs < batch { mergedWhileAppending = true }
        }
        appender.close()
        #expect(mergedWhileAppending, "packs were merged before the appender closed")
        #expect(mostPacks <= BackgroundPackMerges.waitBeyond + 1, "at most \(mostPacks) packs")
        let leftOver = try files().filter { !$0.hasSuffix(".pack") && !$0.hasSuffix(".idx") }
        #expect(leftOver.isEmpty, "half-written files left: \(leftOver)")

        // Objects in packs, counted once a pack (git count-objects), against distinct objects (cat-file).
        let counted = runProcess("git", ["-C", scenario.ledger, "count-objects", "-v"])
        try #require(counted.status == 0, "\(counted.stderr)")
        let inPacks = counted.stdout.split(separator: "\n").first { $0.hasPrefix("in-pack: ") }
            .flatMap { Int($0.dropFirst("in-pack: ".count)) }
        let listed = runProcess("git", ["-C", scenario.ledger, "cat-file", "--batch-all-objects", "--batch-check"])
        try #require(listed.status == 0, "\(listed.stderr)")
        let distinct = listed.stdout.split(separator: "\n").count
        #expect(distinct > 40 * 3)
        #expect(inPacks == distinct, "objects in packs \(inPacks ?? -1), distinct \(distinct)")

        let fsck = runProcess("git", ["-C", scenario.ledger, "fsck", "--full", "--strict"])
        #expect(fsck.status == 0, "\(fsck.stdout)\(fsck.stderr)")
        let verified = CLI.run(["verify", scenario.ledger, "--trust", scenario.signer + ".pub", "--full"])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    }

    /// A merge held in flight: the batches written meanwhile stay, nothing is removed until it is done, its
    /// pack is dated as the newest pack it merged (older than the batches written meanwhile, so a later merge
    /// keeps their objects after its), and past ``BackgroundPackMerges/waitBeyond`` packs a batch waits for it.
    @Test func aMergeInFlightRemovesNothingUntilDoneAndBoundsThePacks() throws {
        let scratch = ScratchDirectory()
        let repository = scratch.path("repo.git")
        try #require(runProcess("git", ["init", "--quiet", "--bare", repository]).status == 0)
        let folder = repository + "/objects/pack/"
        var number = 0
        func writePack(objects: Int = 5) throws -> String {
            let batch = (0..<objects).map { _ in
                number += 1
                return Array(#"{"number":\#(number)}"#.utf8)
            }
            let name = try PackWriter.write(
                batch.map { PackWriter.Object(id: try Repository.blobID(of: $0), type: GIT_OBJECT_BLOB, data: $0) },
                into: folder)
            usleep(2_000)  // packs are dated by their modification time
            return name
        }
        let packs = { Set(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".idx") }) }
        let dated = { (name: String) throws -> Date in
            try #require(
                try FileManager.default.attributesOfItem(atPath: folder + name + ".pack")[.modificationDate] as? Date)
        }
        for _ in 0..<12 { _ = try writePack() }
        let gate = DispatchSemaphore(value: 0)
        let merges = BackgroundPackMerges(beforeWriting: { gate.wait() })
        merges.start(gitDirectory: repository)
        #expect(merges.isWriting)
        let before = try packs()
        let during = try writePack()
        merges.collect()
        #expect(merges.isWriting)
        #expect(try packs() == before.union([during + ".idx"]), "nothing removed while the merge is held")
        gate.signal()
        merges.collect(wait: true)
        #expect(!merges.isWriting)
        let after = try packs()
        #expect(after.contains(during + ".idx"))
        #expect(after.count <= Repository.packLimit + 1, "\(after.count) packs")
        let merged = try #require(after.subtracting(before).subtracting([during + ".idx"]).first)
        #expect(try dated(String(merged.dropLast(4))) < (try dated(during)))

        // Held again, with packs written until more than waitBeyond: the next collect waits for the merge.
        for _ in 0..<Repository.packLimit { _ = try writePack() }
        merges.start(gitDirectory: repository)
        #expect(merges.isWriting)
        while try packs().count <= BackgroundPackMerges.waitBeyond { _ = try writePack() }
        let released = ReleaseFlag()
        DispatchQueue.global().async {
            usleep(200_000)
            released.set()
            gate.signal()
        }
        merges.collect()
        #expect(released.isSet, "the collect past the bound returned before the merge was released")
        #expect(!merges.isWriting)
        #expect(try packs().count <= BackgroundPackMerges.waitBeyond)

        let counted = runProcess("git", ["-C", repository, "count-objects", "-v"])
        #expect(counted.stdout.contains("in-pack: \(number)\n"), "\(counted.stdout)")
        let fsck = runProcess("git", ["-C", repository, "fsck", "--full", "--strict"])
        #expect(fsck.status == 0, "\(fsck.stdout)\(fsck.stderr)")
    }
}

/// Set on one thread, read on another.
private final class ReleaseFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// A writer killed while writing a pack or its index leaves a temporary file carrying its pid; the next
/// appender, holding the writer lock, removes those whose process is gone and leaves the rest.
@Suite("Packs half written by a killed writer")
struct AbandonedPackTests {
    @Test func theNextAppenderRemovesTheTemporaryFilesOfWritersThatAreGone() throws {
        let scenario = LedgerScenario()
        let folder = scenario.ledger + "/objects/pack/"
        // A process that has exited: its pid names no process until it is reused.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let dead = gone.processIdentifier
        let alive = Int32(1)  // init lives as long as the machine
        let abandoned = ["pack-\(dead)-77.pack.tmp", "pack-\(String(repeating: "ab", count: 20)).idx.\(dead).tmp"]
        let kept = [
            "pack-\(alive)-78.pack.tmp", "pack-\(getpid())-79.pack.tmp", "pack-cd.idx.tmp", "notes.tmp",
            "pack-x\(dead)-80.pack.tmp", "pack-+\(dead)-81.pack.tmp", "pack-ef.idx.\(alive).tmp",
        ]
        for name in abandoned + kept {
            #expect(FileManager.default.createFile(atPath: folder + name, contents: Data("partial".utf8)))
        }
        let appender = try Appender.open(scenario.ledger)
        appender.close()
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".tmp") })
        #expect(left == Set(kept), "left: \(left.sorted())")
        let fsck = runProcess("git", ["-C", scenario.ledger, "fsck", "--full"])
        #expect(fsck.status == 0, "\(fsck.stderr)")
    }
}
