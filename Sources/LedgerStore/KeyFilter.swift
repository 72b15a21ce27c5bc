/// The keys of a table a run spilled (``SpilledTable``), held as a split-block Bloom filter: it answers
/// "not held" for most keys the table does not hold without reading the file, and "maybe" for every key it
/// holds.
///
/// Each key sets 8 bits in one block of 256 bits (eight 32-bit words, one bit in each), the block chosen by
/// the high half of the key's hash and the bits by the low half, multiplied by eight odd constants (the
/// layout of Apache Parquet's split-block Bloom filter): a lookup reads one block, one cache line. With
/// `bitsPerKey` bits a key, about 0.5 % of the keys not held answer "maybe"
/// (`KeyFilterTests` measures it).
///
/// Built by the process that wrote the table, as it wrote it, and never saved: the hash is Swift's
/// `Hasher`, seeded anew by each process.
struct KeyFilter: Sendable {
    /// Twelve bits a key: ~26 MB for the 17.7 × 10^6 records of a 10^7 ledger.
    static var bitsPerKey: Int { 12 }
    /// The odd constants that pick a key's bit in each word of its block.
    private static let salts: [UInt32] = [
        0x47b6_137b, 0x4497_4d91, 0x8824_ad5b, 0xa2b7_289d, 0x7054_95c7, 0x2df1_424b, 0x9efc_4947, 0x5c6b_fb31,
    ]

    /// The blocks, eight words each.
    private var words: [UInt32]
    private let blockCount: UInt64

    /// A filter sized for `count` keys.
    init(expecting count: Int) {
        let blocks = max(1, (max(0, count) * Self.bitsPerKey + 255) / 256)
        blockCount = UInt64(blocks)
        words = [UInt32](repeating: 0, count: 8 * blocks)
    }

    mutating func insert(_ key: [UInt8]) {
        let (block, probe) = place(key)
        words.withUnsafeMutableBufferPointer { words in
            for index in 0..<8 {
                words[block + index] |= Self.bit(probe, index)
            }
        }
    }

    /// False when `key` was never inserted; true when it was, and for a few keys that were not.
    func mayContain(_ key: [UInt8]) -> Bool {
        let (block, probe) = place(key)
        return words.withUnsafeBufferPointer { words in
            for index in 0..<8 where words[block + index] & Self.bit(probe, index) == 0 {
                return false
            }
            return true
        }
    }

    /// The first word of `key`'s block, and the half of its hash that picks the bits.
    private func place(_ key: [UInt8]) -> (block: Int, probe: UInt32) {
        var hasher = Hasher()
        key.withUnsafeBytes { hasher.combine(bytes: $0) }
        let hash = UInt64(truncatingIfNeeded: hasher.finalize())
        let block = Int(((hash >> 32) &* blockCount) >> 32)
        return (8 * block, UInt32(truncatingIfNeeded: hash))
    }

    private static func bit(_ probe: UInt32, _ index: Int) -> UInt32 {
        1 << ((probe &* salts[index]) >> 27)
    }
}
