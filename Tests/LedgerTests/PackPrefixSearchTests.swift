import Testing

@testable import LedgerStore

/// The prefix table's search (``PackFile/firstPosition(notBelow:in:low:high:)``) starts where a prefix
/// would sit among evenly spread hashes and gallops from there. Checked against a plain scan on tables as
/// a hash spreads them, and on ones it would not: runs of a few values, everything at one end, one value
/// throughout.
@Suite("Pack prefix table: the search")
struct PackPrefixSearchTests {
    @Test(arguments: ["even", "repeats", "low end", "high end", "two clusters", "one value"])
    func theSearchFindsWhatAScanFinds(shape: String) {
        var random = SeededGenerator(state: 11)
        for size in [1, 2, 3, 17, 1000] {
            let table: [UInt32] = (0..<size).map { _ in
                switch shape {
                case "even": UInt32.random(in: .min ... .max, using: &random)
                case "repeats": UInt32.random(in: 0...3, using: &random) << 30
                case "low end": UInt32.random(in: 0...1000, using: &random)
                case "high end": UInt32.max - UInt32.random(in: 0...1000, using: &random)
                case "two clusters": Bool.random(using: &random) ? 5 : UInt32.max - 5
                default: 1 << 31
                }
            }.sorted()
            // Every value present, one either side of each, and both extremes; within sub-ranges too.
            var probes: [UInt32] = [0, 1, UInt32.max - 1, .max]
            for value in table { probes += [value, value &- 1, value &+ 1] }
            for (low, high) in [(0, size), (0, size / 2), (size / 3, size), (size / 2, size / 2)] {
                // The range inside poison that breaks the order — the largest value before it, the smallest
                // after — so that a read outside `low..<high` changes the answer rather than passing unseen.
                let poisoned =
                    [UInt32](repeating: .max, count: low + 8) + table[low..<high]
                    + [UInt32](repeating: 0, count: size - high + 8)
                let start = 8
                poisoned.withUnsafeBufferPointer { buffer in
                    for prefix in probes {
                        let scanned = (low..<high).first { table[$0] >= prefix } ?? high
                        let searched = PackFile.firstPosition(
                            notBelow: prefix, in: buffer.baseAddress! + start, low: low, high: high)
                        #expect(searched == scanned, "\(shape), size \(size), \(low)..<\(high), prefix \(prefix)")
                    }
                }
            }
        }
    }
}
