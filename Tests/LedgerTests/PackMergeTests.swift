import CLibgit2
import Foundation
import LedgerStore
import Testing

@testable import LedgerWriter

/// Merging packs orders their entries without a comparison sort or a hash set: a radix sort puts each
/// pack's entries in the order they lie in it, and a k-way merge of the indexes' ids gives the merged
/// index's order and finds an id held twice. Each part is checked against the plain way of doing it,
/// and the merged pack's index against the one stock git builds from the pack (`git index-pack`).
@Suite("Pack merges: radix order, k-way id merge, stock git's index")
struct PackMergeTests {
    /// The radix sort against the standard library's (stable) sort, on keys of every width it handles.
    @Test func theRadixOrderIsTheStableSortOrder() {
        var random = SeededGenerator(state: 11)
        let shapes: [[Int]] = [
            [],
            [5],
            [0, 0, 0],
            [3, 1, 2],
            (0..<5_000).map { _ in Int(random.next() % 300) },  // many equal keys: stability shows
            (0..<5_000).map { _ in Int(random.next() % (1 << 40)) },  // offsets past 2^32, one more pass
            (0..<2_000).map { _ in Int(random.next() >> 1) },  // up to Int.max: every pass
            [Int.max, 0, Int.max - 1, 1 << 62, 2047, 2048, 2049, 1 << 11, (1 << 22) - 1, 1 << 22],
            (0..<3_000).reversed().map { $0 * 12 + 12 },  // descending
        ]
        for (shape, keys) in shapes.enumerated() {
            let expected = keys.indices.sorted { keys[$0] < keys[$1] }.map(UInt32.init)
            let order = RadixOrder.positions(ascendingBy: keys)
            #expect(order.elementsEqual(expected), "shape \(shape): \(keys.count) keys, from \(keys.prefix(4))")
        }
    }

    /// The k-way merge against a set of every id and a sort: each id once, from the first pack that holds
    /// it and its first copy there (some ids repeat within a pack), ranked by its place among all the ids.
    @Test func theMergeOrderRanksEachIdOnceFromTheFirstPackHoldingIt() throws {
        var random = SeededGenerator(state: 23)
        let pool = (0..<600).map { _ in Self.id(random.next(), random.next()) }
        for packCount in [1, 2, 5, 9] {
            let packs: [[PackedObjectID]] = (0..<packCount).map { _ in
                let ids = pool.filter { _ in random.next() % 3 == 0 }
                return (ids + ids.filter { _ in random.next() % 8 == 0 }).sorted()
            }
            let order = try #require(PackMergeOrder(packs))
            let distinct = Array(Set(packs.joined())).sorted()
            #expect(order.count == distinct.count)
            let rank = Dictionary(uniqueKeysWithValues: distinct.enumerated().map { ($0.element, UInt32($0.offset)) })
            var holder: [PackedObjectID: (pack: Int, position: Int)] = [:]
            for (number, ids) in packs.enumerated() {
                for (position, id) in ids.enumerated() where holder[id] == nil { holder[id] = (number, position) }
            }
            for (number, ids) in packs.enumerated() {
                let expected = ids.enumerated().map { position, id in
                    holder[id]! == (number, position) ? rank[id]! : PackMergeOrder.dropped
                }
                #expect(order.ranks[number].elementsEqual(expected), "pack \(number) of \(packCount)")
            }
        }
        let one = Self.id(1, 0)
        let two = Self.id(2, 0)
        #expect(PackMergeOrder([[], [one, two], [two]])?.ranks == [[], [0, 1], [PackMergeOrder.dropped]])
    }

    /// An index whose ids are out of order is not one git writes: the merge is not attempted. An id a pack
    /// holds twice (`git index-pack` accepts such a pack) is kept once, from its first copy.
    @Test func idsOutOfOrderAreRefusedAndARepeatedIdIsKeptOnce() throws {
        let one = Self.id(1, 0)
        let two = Self.id(2, 0)
        let three = Self.id(3, 0)
        #expect(PackMergeOrder([[one, two], [two, one]]) == nil)
        let dropped = PackMergeOrder.dropped
        let repeated = try #require(PackMergeOrder([[one, one, two], [two, two, three]]))
        #expect(repeated.ranks == [[0, dropped, 1], [dropped, dropped, 2]])
        #expect(repeated.count == 3)
    }

    /// A caller's index order is checked before the pack is made visible: a number given twice or out of
    /// range, or ids listed out of order, throw and leave the pack folder as it was.
    @Test func aWrongIndexOrderIsRefusedAndNothingIsLeft() throws {
        let scratch = ScratchDirectory()
        let folder = scratch.path("pack") + "/"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let objects = try (0..<3).map { number in
            let data = Array("object \(number)".utf8)
            return PackWriter.Object(id: try Repository.blobID(of: data), type: GIT_OBJECT_BLOB, data: data)
        }
        let ascending = objects.indices.sorted { objects[$0].id.hex < objects[$1].id.hex }.map(UInt32.init)
        for wrong in [[0, 0, 1], [0, 1, 3], [0, 1], Array(ascending.reversed())] {
            let writer = try PackWriter(directory: folder, count: objects.count)
            for object in objects { try writer.add(object) }
            #expect(throws: PackWriter.PackError.self) { try writer.finish(indexOrder: wrong) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        let writer = try PackWriter(directory: folder, count: objects.count)
        for object in objects { try writer.add(object) }
        let name = try writer.finish(indexOrder: ascending)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [name + ".idx", name + ".pack"])
    }

    /// Twelve packs merged by the writer — some objects in two of them, one pack holding an object twice, and
    /// a 5 MiB incompressible object (more than the reader's 4 MiB window) among small ones: the merged pack's
    /// index is byte for byte the one `git index-pack` builds from the pack, every object reads back, and
    /// `git fsck` passes.
    @Test func aMergedPacksIndexIsTheOneStockGitBuilds() throws {
        let scratch = ScratchDirectory()
        let repository = scratch.path("repo.git")
        try #require(runProcess("git", ["init", "--quiet", "--bare", repository]).status == 0)
        let folder = repository + "/objects/pack/"
        var random = SeededGenerator(state: 31)
        var contents: [[UInt8]] = []
        var firstPack = ""
        for pack in 0..<12 {
            var batch = (0..<(40 + pack * 7)).map { number in
                Array(#"{"pack":\#(pack),"number":\#(number),"noise":"\#(random.next())"}"#.utf8)
            }
            if pack % 3 == 2 { batch += contents.suffix(5) }  // objects an earlier pack holds too
            if pack == 0 { batch.insert((0..<(5 << 20)).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: 20) }
            contents += batch
            if pack == 1 { batch.append(batch[3]) }  // one object twice in one pack
            let objects = try batch.map {
                PackWriter.Object(id: try Repository.blobID(of: $0), type: GIT_OBJECT_BLOB, data: $0)
            }
            let name = try PackWriter.write(objects, into: folder)
            if pack == 0 { firstPack = name }
            usleep(2_000)  // packs merge oldest first, by modification time
        }
        let packs = { try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".pack") } }
        try #require(try packs().count == 12)
        let opened = try Repository.open(repository)
        #expect(try opened.consolidatePacks() >= 2)
        #expect(try packs().count <= Repository.packLimit)
        for pack in try packs() {
            let name = String(pack.dropLast(".pack".count))
            let rebuilt = scratch.path(name + ".rebuilt.idx")
            let indexed = runProcess("git", ["index-pack", "--no-rev-index", "-o", rebuilt, folder + pack])
            try #require(indexed.status == 0, "\(indexed.stderr)")
            let ours = try Data(contentsOf: URL(fileURLWithPath: folder + name + ".idx"))
            #expect(ours == (try Data(contentsOf: URL(fileURLWithPath: rebuilt))), "\(name).idx")
        }
        let merged = try #require(try packs().max { try Self.size(folder + $0) < Self.size(folder + $1) })
        #expect(
            try Self.size(folder + merged) > 5 << 20 && merged != firstPack + ".pack", "the large object was merged")
        for bytes in contents {
            let id = try Repository.blobID(of: bytes).hex
            let copy = scratch.path(id)
            let read = runProcess(
                "sh", ["-c", "git --git-dir \"$0\" cat-file blob \"$1\" > \"$2\"", repository, id, copy])
            #expect(read.status == 0, "\(read.stderr)")
            #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: copy))) == bytes, "\(id)")
        }
        let fsck = runProcess("git", ["--git-dir", repository, "fsck", "--full", "--strict"])
        #expect(fsck.status == 0, "\(fsck.stderr)")
    }

    private static func size(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    }

    private static func id(_ high: UInt64, _ middle: UInt64) -> PackedObjectID {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: high.bigEndian) { bytes += $0 }
        withUnsafeBytes(of: middle.bigEndian) { bytes += $0 }
        bytes += [0, 0, 0, 7]
        return bytes.withUnsafeBytes { PackedObjectID($0, at: 0) }
    }
}
