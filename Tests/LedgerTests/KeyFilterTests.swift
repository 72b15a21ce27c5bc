import Foundation
import Testing

import LedgerFormat
@testable import LedgerStore

/// The filter of a spilled table's keys (`KeyFilter`) never says "not held" of a key it holds, says it of
/// nearly every key it does not hold, and a spilled table asks it before reading its file.
@Suite("Key filters of spilled tables")
struct KeyFilterTests {
    /// Random keys of 0 to 40 bytes, and as many others of the same lengths that differ from every one of them
    /// (a set of each).
    static func keys(_ count: Int, seed: UInt64) -> (held: [[UInt8]], absent: [[UInt8]]) {
        var random = SeededGenerator(state: seed)
        var held: Set<[UInt8]> = []
        var absent: Set<[UInt8]> = []
        while held.count < count || absent.count < count {
            let key = (0..<Int(random.next() % 41)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if held.contains(key) || absent.contains(key) { continue }
            if held.count < count && (absent.count >= count || random.next() % 2 == 0) {
                held.insert(key)
            } else {
                absent.insert(key)
            }
        }
        return (Array(held), Array(absent))
    }

    /// Every key inserted answers "maybe"; of the keys never inserted, about 0.5 % do (the layout's figure at
    /// twelve bits a key), well under 2 % at every size, however the process seeds its hashes.
    @Test(arguments: [100, 50_000])
    func holdsEveryKeyAndFewOthers(count: Int) {
        let (held, absent) = Self.keys(count, seed: UInt64(count))
        var filter = KeyFilter(expecting: count)
        for key in held { filter.insert(key) }
        #expect(held.allSatisfy { filter.mayContain($0) })
        let falsePositives = absent.count { filter.mayContain($0) }
        if count >= 50_000 {
            #expect(Double(falsePositives) / Double(absent.count) < 0.02)
        } else {
            #expect(falsePositives < count / 10)
        }
    }

    /// A filter sized for fewer keys than it is given still holds them all (it only answers "maybe" more
    /// often), and an empty one holds nothing.
    @Test func anOverfullOrEmptyFilterStaysCorrect() {
        let (held, absent) = Self.keys(5_000, seed: 7)
        var overfull = KeyFilter(expecting: 10)
        for key in held { overfull.insert(key) }
        #expect(held.allSatisfy { overfull.mayContain($0) })
        let empty = KeyFilter(expecting: 0)
        #expect(!held.contains { empty.mayContain($0) } && !absent.contains { empty.mayContain($0) })
    }

    /// A spilled table asks its filter first. With a filter of every key, each key is found and keys between
    /// them are not; with an empty filter, no key the file holds is found — the lookups never read it.
    @Test func aSpilledTableAsksItsFilterBeforeReading() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("filter-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/spill.table"
        let keys = (0..<1_000).map { Array(String(format: "key-%05d", 2 * $0).utf8) }
        let header = SortedTable.Header(
            kind: "test", tip: ObjectID(rawBytes: [UInt8](repeating: 0, count: 20))!, base: nil, count: keys.count,
            note: 0)
        try SortedTable.write(header: header, to: path, mode: 0o600, durable: false) { (keys[$0], [UInt8($0 % 251)]) }

        var every = KeyFilter(expecting: keys.count)
        for key in keys { every.insert(key) }
        let whole = try #require(SpilledTable(path: path, kind: "test", filter: every))
        #expect(keys.indices.allSatisfy { whole.value(for: keys[$0]) == [UInt8($0 % 251)] })
        let between = (0..<1_000).map { Array(String(format: "key-%05d", 2 * $0 + 1).utf8) }
        #expect(!between.contains { whole.contains($0) })

        let blind = try #require(SpilledTable(path: path, kind: "test", filter: KeyFilter(expecting: keys.count)))
        #expect(!keys.contains { blind.contains($0) })
    }
}
