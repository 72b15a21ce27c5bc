// Needs nothing but the standard library: the git-object fuzzer compiles it with the pack scanner
// (scripts/fuzz-git-objects). The bridge to `ObjectID` is in ObjectID.swift.

/// A git object id's 20 bytes held inline as three words: hashed and compared without an allocation per
/// object (a 10^6-entry ledger's packs hold millions of objects; its record index a million blob ids).
public struct PackedObjectID: Hashable, Sendable {
    let high: UInt64
    let middle: UInt64
    let low: UInt32

    /// The id stored at `offset` in `bytes` (the caller has checked that 20 bytes are there).
    public init(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        high = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        middle = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
        low = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt32.self))
    }

    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(20)
        append(to: &out)
        return out
    }

    /// Appends the id's 20 bytes to `out`.
    public func append(to out: inout [UInt8]) {
        withUnsafeBytes(of: high.bigEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: middle.bigEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: low.bigEndian) { out.append(contentsOf: $0) }
    }

    /// The id's first byte (a pack index's fan-out bucket).
    public var firstByte: UInt8 { UInt8(truncatingIfNeeded: high >> 56) }
}

extension PackedObjectID: Comparable {
    /// The order of the ids' bytes (the words hold them big-endian).
    public static func < (left: PackedObjectID, right: PackedObjectID) -> Bool {
        (left.high, left.middle, left.low) < (right.high, right.middle, right.low)
    }
}

/// A version-2 pack index, read by the one reader both the verifier's pack scan (hostile bytes) and the
/// writer's pack merges use. Layout (git's `gitformat-pack`, "Version 2 pack-*.idx files"): the magic
/// `\377tOc`, version 2, a 256-entry fan-out whose last entry is the object count, the sorted ids (20 bytes
/// each), their CRC-32s (4), their offsets (4; with the top bit set, the position of an 8-byte offset in
/// the table that follows), then the pack's and the index's checksums.
public enum PackIndex {
    public struct Entry: Sendable {
        public let id: PackedObjectID
        public let offset: Int
        /// The CRC-32 of the object's bytes in the pack.
        public let crc: UInt32
    }

    public struct Malformed: Error, Sendable {
        public let reason: String
    }

    /// Bytes of the header that give the count: magic, version, fan-out.
    public static let headerSize = 8 + 256 * 4

    /// How many objects the index lists, from its first ``headerSize`` bytes; nil when it is not version 2.
    public static func count(header bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= headerSize, Array(bytes[0..<4]) == [0xFF, 0x74, 0x4F, 0x63],
            Array(bytes[4..<8]) == [0, 0, 0, 2]
        else { return nil }
        return Int(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 8 + 255 * 4, as: UInt32.self)))
    }

    /// A version-2 index read in place: each entry is read from the bytes when it is asked for, in id order,
    /// so a pack of 14 million objects costs no array of them (40 bytes an entry: a 10^7-entry ledger's pack
    /// scan held 1 GB). Checked whole when made — the size, every offset and every large offset's slot — so
    /// reading an entry cannot fail. The bytes must outlive the table.
    public struct Table: RandomAccessCollection {
        private let bytes: UnsafeRawBufferPointer
        private let names: Int
        private let crcs: Int
        private let offsets: Int
        private let large: Int
        public let endIndex: Int
        public var startIndex: Int { 0 }

        public init(_ bytes: UnsafeRawBufferPointer) throws(Malformed) {
            guard let count = PackIndex.count(header: bytes) else {
                throw Malformed(reason: "not a version-2 pack index")
            }
            self.bytes = bytes
            endIndex = count
            names = headerSize
            crcs = names + count * 20
            offsets = crcs + count * 4
            large = offsets + count * 4
            guard large <= bytes.count else { throw Malformed(reason: "a truncated pack index") }
            for position in 0..<count {
                let word = self.word(offsets + position * 4)
                guard word & 0x8000_0000 != 0 else { continue }
                let slot = large + Int(word & 0x7FFF_FFFF) * 8
                guard slot + 8 <= bytes.count else { throw Malformed(reason: "a truncated pack index") }
                guard UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: slot, as: UInt64.self)) <= UInt64(Int.max)
                else { throw Malformed(reason: "an object offset past any pack") }
            }
        }

        private func word(_ at: Int) -> UInt32 {
            UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self))
        }

        /// The offset in the pack of the object at `position` (in id order).
        public func offset(at position: Int) -> Int {
            let word = self.word(offsets + position * 4)
            guard word & 0x8000_0000 != 0 else { return Int(word) }
            let slot = large + Int(word & 0x7FFF_FFFF) * 8
            return Int(UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: slot, as: UInt64.self)))
        }

        public subscript(position: Int) -> Entry {
            Entry(
                id: PackedObjectID(bytes, at: names + position * 20), offset: offset(at: position),
                crc: word(crcs + position * 4))
        }
    }
}
