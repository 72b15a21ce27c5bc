package import CLibgit2

/// A git object id (SHA-1, 20 bytes). Hex only at the edges.
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    package init(_ oid: git_oid) {
        var copy = oid
        bytes = withUnsafeBytes(of: &copy.id) { Array($0) }
    }

    /// An id from its 20 raw bytes (as pack indexes and tree objects store it); nil for another length.
    public init?(rawBytes: [UInt8]) {
        guard rawBytes.count == 20 else { return nil }
        bytes = rawBytes
    }

    public init?(hexString hex: String) {
        guard hex.utf8.count == 40 else { return nil }
        var oid = git_oid()
        guard git_oid_fromstr(&oid, hex) == 0 else { return nil }
        self.init(oid)
    }

    package var raw: git_oid {
        var oid = git_oid()
        withUnsafeMutableBytes(of: &oid.id) { $0.copyBytes(from: bytes) }
        return oid
    }

    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(40)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The id of the tree with no entries (`git hash-object -t tree /dev/null`): a tree object is empty
    /// exactly when its id is this one, since an object's id is the hash of its bytes.
    public static let emptyTree = ObjectID(hexString: "4b825dc642cb6eb9a060e54bf8d69288fbee4904")!

    public var description: String { hex }
    public var short: String { String(hex.prefix(12)) }
}

extension PackedObjectID {
    public init(_ id: ObjectID) {
        self = id.bytes.withUnsafeBytes { PackedObjectID($0, at: 0) }
    }

    public var objectID: ObjectID { ObjectID(rawBytes: bytes)! }
}
