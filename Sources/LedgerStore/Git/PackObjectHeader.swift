// Needs nothing but the standard library and PackIndex.swift: the git-object fuzzer compiles it with the
// pack scanner (scripts/fuzz-git-objects).

/// The header of an object in a git pack, read by the one parser both the verifier's pack scan and the
/// pack reader use (git's `gitformat-pack`, "Pack file entries"): the type in bits 4–6 of the first byte
/// and the size as a little-endian base-128 number starting with its low four bits (at most 10 bytes);
/// then, for an `OFS_DELTA` (6), the distance back to its base, a big-endian base-128 number where each
/// byte after the first adds one before shifting (at most 8 bytes, so it cannot overflow: 2^56 is past any
/// pack), or, for a `REF_DELTA` (7), the base's 20-byte id. The zlib stream follows.
public struct PackObjectHeader: Sendable {
    public enum Base: Equatable, Sendable {
        case none
        case offset(Int)
        case id(PackedObjectID)
    }

    public struct Malformed: Error, Sendable {
        public let reason: String
    }

    /// 1 commit, 2 tree, 3 blob, 4 tag, 6 `OFS_DELTA`, 7 `REF_DELTA`.
    public let type: Int
    /// The size of the object (of the delta, for a delta) after inflating; `Int.max` when the header gives
    /// more than that.
    public let size: Int
    public let base: Base
    /// Where the zlib stream starts, as a position in the bytes given.
    public let dataStart: Int

    /// The header of the object at `offset` in the pack, whose bytes from `offset` on are `bytes[start...]`
    /// (the whole pack with `start == offset`, or a window of it).
    public static func parse(_ bytes: UnsafeRawBufferPointer, at start: Int, offset: Int) throws(Malformed)
        -> PackObjectHeader
    {
        guard start >= 0, start < bytes.count else { throw Malformed(reason: "a truncated object at \(offset)") }
        var position = start
        var byte = bytes[position]
        let type = Int((byte >> 4) & 7)
        var size = Int(byte & 0x0F)
        var shift = 4
        while byte & 0x80 != 0 {
            position += 1
            guard position < bytes.count, position - start < 10 else {
                throw Malformed(reason: "a malformed object header at \(offset)")
            }
            byte = bytes[position]
            if shift <= 56 {
                size |= Int(byte & 0x7F) << shift
            } else if byte & 0x7F != 0 {
                size = Int.max
            }
            shift += 7
        }
        position += 1
        switch type {
        case 1, 2, 3, 4:
            return PackObjectHeader(type: type, size: size, base: .none, dataStart: position)
        case 6:
            guard position < bytes.count else { throw Malformed(reason: "a truncated delta at \(offset)") }
            let first = position
            var byte = bytes[position]
            var distance = Int(byte & 0x7F)
            while byte & 0x80 != 0 {
                position += 1
                guard position < bytes.count, position - first < 8 else {
                    throw Malformed(reason: "a malformed delta offset at \(offset)")
                }
                byte = bytes[position]
                distance = ((distance + 1) << 7) | Int(byte & 0x7F)
            }
            guard distance > 0, distance <= offset - 12 else {
                throw Malformed(reason: "the delta at \(offset) is based on itself or on a later object")
            }
            return PackObjectHeader(type: type, size: size, base: .offset(offset - distance), dataStart: position + 1)
        case 7:
            guard position + 20 <= bytes.count else { throw Malformed(reason: "a truncated delta at \(offset)") }
            return PackObjectHeader(
                type: type, size: size, base: .id(PackedObjectID(bytes, at: position)), dataStart: position + 20)
        default:
            throw Malformed(reason: "object type \(type) at \(offset)")
        }
    }
}
