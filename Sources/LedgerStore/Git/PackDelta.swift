// Needs nothing but the standard library: the git-object fuzzer compiles it with the pack scanner
// (scripts/fuzz-git-objects).

/// A git delta applied to its base: the object a pack stores as `OFS_DELTA` or `REF_DELTA` rebuilt from
/// the base's bytes and the delta's instructions (git's `gitformat-pack`, "Deltified representation"):
/// the base's size and the result's size, each a little-endian base-128 number, then instructions — a byte
/// with the top bit set copies a range of the base (its low four bits say which offset bytes follow, the
/// next three which size bytes; a size of 0 means 0x10000), a byte from 1 to 127 inserts that many bytes
/// that follow it, and 0 is reserved. Every range is checked against the base and the result, so hostile
/// bytes give an error, never a read or write outside them.
public enum PackDelta {
    public struct Malformed: Error, Sendable {
        public let reason: String
    }

    /// The sizes a delta starts with, and where its instructions begin.
    public struct Sizes: Sendable, Equatable {
        public let base: Int
        public let result: Int
        public let instructions: Int
    }

    /// The base's and the result's sizes the delta declares.
    public static func sizes(_ delta: UnsafeRawBufferPointer) throws(Malformed) -> Sizes {
        var position = 0
        let base = try number(delta, &position)
        let result = try number(delta, &position)
        return Sizes(base: base, result: result, instructions: position)
    }

    /// Applies `delta` to `base`, filling `result`, whose size must be the one the delta declares (as must
    /// the base's).
    public static func apply(
        _ delta: UnsafeRawBufferPointer, to base: UnsafeRawBufferPointer, into result: UnsafeMutableRawBufferPointer
    ) throws(Malformed) {
        let sizes = try sizes(delta)
        guard sizes.base == base.count else {
            throw Malformed(reason: "a delta for a base of \(sizes.base) bytes applied to one of \(base.count)")
        }
        guard sizes.result == result.count else {
            throw Malformed(reason: "a delta that makes \(sizes.result) bytes read as \(result.count)")
        }
        var position = sizes.instructions
        var written = 0
        while position < delta.count {
            let instruction = delta[position]
            position += 1
            if instruction & 0x80 != 0 {
                var offset = 0
                var length = 0
                for byte in 0..<4 where instruction & (1 << byte) != 0 {
                    guard position < delta.count else { throw Malformed(reason: "a delta's copy cut short") }
                    offset |= Int(delta[position]) << (8 * byte)
                    position += 1
                }
                for byte in 0..<3 where instruction & (0x10 << byte) != 0 {
                    guard position < delta.count else { throw Malformed(reason: "a delta's copy cut short") }
                    length |= Int(delta[position]) << (8 * byte)
                    position += 1
                }
                if length == 0 { length = 0x10000 }
                // Four offset bytes and three size bytes at most: the sum cannot overflow.
                guard offset + length <= base.count, length <= result.count - written
                else {
                    throw Malformed(
                        reason: "a delta copies \(length) bytes from \(offset) of a \(base.count)-byte base "
                            + "into \(result.count - written) bytes left")
                }
                result.baseAddress!.advanced(by: written).copyMemory(
                    from: base.baseAddress!.advanced(by: offset), byteCount: length)
                written += length
            } else if instruction != 0 {
                let length = Int(instruction)
                guard length <= delta.count - position, length <= result.count - written else {
                    throw Malformed(reason: "a delta inserts \(length) bytes past its own end or the result's")
                }
                result.baseAddress!.advanced(by: written).copyMemory(
                    from: delta.baseAddress!.advanced(by: position), byteCount: length)
                position += length
                written += length
            } else {
                throw Malformed(reason: "a delta uses the reserved instruction 0")
            }
        }
        guard written == result.count else {
            throw Malformed(reason: "a delta makes \(written) bytes, not the \(result.count) it declares")
        }
    }

    /// A little-endian base-128 number (seven bits a byte, the top bit set on every byte but the last),
    /// at most 2^56.
    private static func number(_ bytes: UnsafeRawBufferPointer, _ position: inout Int) throws(Malformed) -> Int {
        var value = 0
        var shift = 0
        while true {
            guard position < bytes.count else { throw Malformed(reason: "a delta's header cut short") }
            let byte = bytes[position]
            position += 1
            value |= Int(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
            guard shift < 56 else { throw Malformed(reason: "a delta declares a size past 2^56 bytes") }
        }
    }
}
