public import LedgerFormat
public import LedgerStore

/// One path that differs between a commit and its parent.
public struct PathChange: Sendable {
    public enum Kind: Sendable { case added, modified, deleted }
    public let kind: Kind
    public let path: String
    /// The git mode of the new entry (or of the old one for a deletion).
    public let mode: UInt32
    public let objectKind: TreeEntry.Kind
    /// For a tree: whether it is empty (an empty folder is never on the whitelist).
    public let isEmptyTree: Bool
    /// For an added or replaced blob: its size from the object header (read before the content, by the
    /// loader once the walk is done); for a folder over the entry limit, its entry count.
    public var size: Int?
    /// The object the path names in the new tree (nil for a deletion).
    public var id: ObjectID? = nil
    /// For a file: what the path names on the whitelist and the batch it is stored in (nil: not on the
    /// whitelist). Classified once by the loader, read by every policy.
    public var located: (meaning: LedgerLayout.PathMeaning, batch: Int64?)? = nil
}
