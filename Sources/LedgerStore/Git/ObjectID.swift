package import CLibgit2
internal import LedgerFormat

/// A git object id (SHA-1, 20 bytes). Hex only at the edges.
///
/// Held in three words, not an array: a verify makes and compares several ids for every file (tree
/// entries, changed paths, the blobs read), and an array would be an allocation and a reference count each.
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    let packed: PackedObjectID

    /// The id's 20 bytes.
    public var bytes: [UInt8] { packed.bytes }

    package init(_ oid: git_oid) {
        var copy = oid
        packed = withUnsafeBytes(of: &copy.id) { PackedObjectID($0, at: 0) }
    }

    /// An id from its 20 raw bytes (as pack indexes and tree objects store it); nil for another length.
    public init?(rawBytes: [UInt8]) {
        guard rawBytes.count == 20 else { return nil }
        packed = rawBytes.withUnsafeBytes { PackedObjectID($0, at: 0) }
    }

    /// The id stored at `offset` in `bytes` (the caller has checked that 20 bytes are there).
    public init(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        packed = PackedObjectID(bytes, at: offset)
    }

    public init?(hexString hex: String) {
        guard hex.utf8.count == 40 else { return nil }
        var oid = git_oid()
        guard git_oid_fromstr(&oid, hex) == 0 else { return nil }
        self.init(oid)
    }

    package var raw: git_oid {
        var oid = git_oid()
        withUnsafeMutableBytes(of: &oid.id) { target in
            withUnsafeBytes(of: packed.high.bigEndian) {
                target.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: 8)
            }
            withUnsafeBytes(of: packed.middle.bigEndian) {
                (target.baseAddress! + 8).copyMemory(from: $0.baseAddress!, byteCount: 8)
            }
            withUnsafeBytes(of: packed.low.bigEndian) {
                (target.baseAddress! + 16).copyMemory(from: $0.baseAddress!, byteCount: 4)
            }
        }
        return oid
    }

    public var hex: String { Hex.encode(bytes) }

    /// The id of the tree with no entries (`git hash-object -t tree /dev/null`): a tree object is empty
    /// exactly when its id is this one, since an object's id is the hash of its bytes.
    public static let emptyTree = ObjectID(hexString: "4b825dc642cb6eb9a060e54bf8d69288fbee4904")!

    init(packed: PackedObjectID) {
        self.packed = packed
    }

    public var description: String { hex }
    public var short: String { String(hex.prefix(12)) }
}

extension PackedObjectID {
    public init(_ id: ObjectID) {
        self = id.packed
    }

    public var objectID: ObjectID { ObjectID(packed: self) }
}
