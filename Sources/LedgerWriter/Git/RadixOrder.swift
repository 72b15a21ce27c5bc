/// The positions of non-negative keys in ascending key order, by a least-significant-digit radix sort
/// (11 bits a pass, as many passes as the largest key needs): a pack's entries by offset when packs are
/// merged (measured against the standard library's sort in BENCHMARKS.md, "a pack merge without a hash set
/// or a comparison sort").
///
/// Stable: equal keys keep their positions' order.
enum RadixOrder {
    static let digitBits = 11

    /// The positions `0..<keys.count`, ordered by `keys[position]` ascending.
    /// - Precondition: every key ≥ 0, and fewer than 2^32 keys (a pack's header counts its objects in 32 bits).
    static func positions(ascendingBy keys: [Int]) -> [UInt32] {
        precondition(keys.count <= Int(UInt32.max), "2^32 keys or more")
        var order = (0..<keys.count).map { UInt32($0) }
        guard keys.count > 1, let largest = keys.max() else { return order }
        precondition(keys.min()! >= 0, "a negative key")
        // The keys travel with their positions, so each pass reads both arrays front to back.
        var sorted = keys
        var orderScratch = order
        var sortedScratch = keys
        let mask = (1 << digitBits) - 1
        var counts = [Int](repeating: 0, count: (1 << digitBits) + 1)
        var shift = 0
        while shift < Int.bitWidth && largest >> shift != 0 {
            for index in counts.indices { counts[index] = 0 }
            for key in sorted { counts[((key >> shift) & mask) + 1] += 1 }
            for digit in 0..<(1 << digitBits) { counts[digit + 1] += counts[digit] }
            for index in sorted.indices {
                let key = sorted[index]
                let digit = (key >> shift) & mask
                sortedScratch[counts[digit]] = key
                orderScratch[counts[digit]] = order[index]
                counts[digit] += 1
            }
            swap(&sorted, &sortedScratch)
            swap(&order, &orderScratch)
            shift += digitBits
        }
        return order
    }
}
