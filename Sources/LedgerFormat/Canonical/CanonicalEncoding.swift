#if canImport(Glibc)
    import Glibc
#endif

/// An object's canonical bytes with where each of its members ends: the bytes of the object without one of
/// its top-level members — a record's signing bytes — are then cut from them, not encoded a second time.
///
/// Canonical JSON writes an object's members in key order, separated by single commas and nothing else
/// (reference §1.1), so the encoding of the object with member *i* removed is the encoding with that
/// member and one of the commas beside it removed.
public struct CanonicalEncoding: Sendable {
    /// The canonical bytes of the object (``CanonicalJSON/encode(_:)-(JSONObject)``).
    public let bytes: [UInt8]
    /// The object's members, in their keys' (byte) order.
    let members: [JSONObject.Member]
    /// Where each member's value ends in ``bytes`` (one past its last byte), in the same order.
    let memberEnds: [Int]

    public init(of object: JSONObject) {
        var encoder = CanonicalEncoder()
        var ends: [Int] = []
        ends.reserveCapacity(object.count)
        encoder.write(object) { ends.append($0) }
        bytes = encoder.output
        members = object.members
        memberEnds = ends
    }

    /// The encoding `bytes` already are, as the parser recognized them reading `object` from them
    /// (``CanonicalJSON/parseNotingCanonicalForm(_:)``), with where its members end.
    init(canonicalBytes bytes: [UInt8], of object: JSONObject, memberEnds: [Int]) {
        self.bytes = bytes
        members = object.members
        self.memberEnds = memberEnds
    }

    /// Whether `stored` are exactly these bytes — whether a file is the canonical form of what it parses
    /// to — compared with one `memcmp`.
    public func isIdentical(to stored: [UInt8]) -> Bool {
        guard stored.count == bytes.count else { return false }
        return bytes.withUnsafeBytes { own in
            stored.withUnsafeBytes { other in
                own.count == 0 || memcmp(own.baseAddress!, other.baseAddress!, own.count) == 0
            }
        }
    }

    /// The canonical bytes of the object without its top-level member `key` (all of them when it has none):
    /// what ``CanonicalJSON/signingBytes(of:omitting:)`` gives.
    public func omitting(_ key: String) -> [UInt8] {
        guard let index = members.firstIndex(where: { $0.key.hasSameBytes(as: key) }) else { return bytes }
        // The member begins after the `{` or after the comma that ends the one before it.
        let start = index == 0 ? 1 : memberEnds[index - 1] + 1
        let end = memberEnds[index]
        let removed: Range<Int>
        if index > 0 {
            removed = (start - 1)..<end  // the comma before it, and the member
        } else if members.count > 1 {
            removed = start..<(end + 1)  // the member, and the comma after it
        } else {
            removed = start..<end  // the only member: `{}` is left
        }
        // Built at its own size: a copy of `bytes` would keep the encoder's spare capacity with the record.
        var cut: [UInt8] = []
        cut.reserveCapacity(bytes.count - removed.count)
        cut += bytes[..<removed.lowerBound]
        cut += bytes[removed.upperBound...]
        return cut
    }
}
