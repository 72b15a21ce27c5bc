package import CLibgit2
#if canImport(Glibc)
    import Glibc
#endif

/// An open git repository: the one owner of a `git_repository*`.
///
/// Not thread-safe (libgit2 forbids sharing one handle across threads): open one per thread.
public final class Repository {
    package let pointer: OpaquePointer
    public let path: String
    /// The in-memory object backend, once ``attachInMemoryObjects()`` added it (owned by the ODB).
    package var memoryBackend: UnsafeMutablePointer<git_odb_backend>?
    /// The project's pack reader, when ``openForReading(_:keepingOffsets:)`` put it in place of libgit2's
    /// (owned by the ODB, which outlives no handle): ``readBlob(_:within:)`` reads through it directly.
    var packReader: PackReadingBackend?

    package init(takingOwnershipOf pointer: OpaquePointer, path: String) {
        self.pointer = pointer
        self.path = path
    }

    deinit { git_repository_free(pointer) }

    /// Opens an existing repository (bare, or the `.git` of a normal one).
    /// The corresponding C function is `git_repository_open_ext`.
    public static func open(_ path: String) throws(GitError) -> Repository {
        GitLibrary.ensureInitialized()
        var repo: OpaquePointer?
        let result = git_repository_open_ext(&repo, path, UInt32(GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue), nil)
        if result == GIT_ENOTFOUND.rawValue {
            throw GitError(
                code: .notFound, function: #function,
                message: "\(path) is not a git repository (a ledger is a bare repository: 'onym-ledger init' makes one)"
            )
        }
        if result == GIT_EOWNER.rawValue {
            throw GitError(
                code: .owner, function: #function,
                message: "\(path) belongs to another user, and git refuses such repositories (\"dubious ownership\"). "
                    + "If you trust it: git config --global --add safe.directory \(path)")
        }
        try GitError.check(result)
        return Repository(takingOwnershipOf: repo!, path: path)
    }

    /// The directory of the repository's git data (the repository itself when bare).
    public var gitDirectory: String { String(cString: git_repository_path(pointer)) }

    public var isBare: Bool { git_repository_is_bare(pointer) == 1 }

    // MARK: - References

    /// The object a reference points at, or nil when the reference does not exist.
    public func referenceTarget(_ name: String) throws(GitError) -> ObjectID? {
        var oid = git_oid()
        let result = git_reference_name_to_id(&oid, pointer, name)
        if result == GIT_ENOTFOUND.rawValue { return nil }
        try GitError.check(result)
        return ObjectID(oid)
    }

    // MARK: - Objects

    /// Resolves a hex id or unique prefix of at least 4 digits to a full commit id.
    public func resolveCommit(_ text: String) throws(GitError) -> ObjectID {
        var object: OpaquePointer?
        try GitError.check(git_revparse_single(&object, pointer, text))
        defer { git_object_free(object) }
        guard git_object_type(object) == GIT_OBJECT_COMMIT else {
            throw GitError.fail("\(text) is not a commit")
        }
        return ObjectID(git_object_id(object).pointee)
    }

    /// The id git gives a blob of `bytes` (SHA-1 of `blob <size>\0` and the bytes), nothing read or written,
    /// as libgit2's strict verification computes it: an error where git's SHA-1 detects a collision attack in
    /// the bytes (`git_odb_hash` fails) — bytes from a pack or a backend's batch, never a crash.
    public static func blobID(of bytes: [UInt8]) throws(GitError) -> ObjectID {
        var oid = git_oid()
        let status = bytes.withUnsafeBytes { git_odb_hash(&oid, $0.baseAddress, $0.count, GIT_OBJECT_BLOB) }
        guard status == 0 else { throw GitError.fail("a blob whose SHA-1 git refuses (a collision attack detected)") }
        return ObjectID(oid)
    }

    /// A blob's bytes, refusing blobs larger than `limit` before reading them.
    public func readBlob(_ id: ObjectID, limit: Int = Int.max) throws(GitError) -> [UInt8] {
        var blob: OpaquePointer?
        var oid = id.raw
        try GitError.check(git_blob_lookup(&blob, pointer, &oid))
        defer { git_blob_free(blob) }
        let size = Int(git_blob_rawsize(blob))
        guard size <= limit else {
            throw GitError.fail("blob \(id.short) is \(size) bytes, over the limit of \(limit)")
        }
        guard size > 0, let content = git_blob_rawcontent(blob) else { return [] }
        return Array(UnsafeRawBufferPointer(start: content, count: size))
    }

    /// The size of a blob from the object header, without inflating its content.
    public func blobSize(_ id: ObjectID) throws(GitError) -> Int {
        var odb: OpaquePointer?
        try GitError.check(git_repository_odb(&odb, pointer))
        defer { git_odb_free(odb) }
        var size = 0
        var type = GIT_OBJECT_ANY
        var oid = id.raw
        try GitError.check(git_odb_read_header(&size, &type, odb, &oid))
        return size
    }

    /// The blob at `path` in `commit`'s tree, or nil when there is no such file.
    public func blob(at path: String, inCommit commit: ObjectID, limit: Int = Int.max) throws(GitError) -> [UInt8]? {
        guard let entry = try entry(at: path, inCommit: commit), entry.kind == .blob else { return nil }
        return try readBlob(entry.id, limit: limit)
    }

    /// The tree entry at `path` in `commit`'s tree, or nil.
    public func entry(at path: String, inCommit commit: ObjectID) throws(GitError) -> TreeEntry? {
        try entry(at: path, inTree: try self.commit(commit).tree)
    }

    /// The tree entry at `path` under the tree `treeID`, or nil.
    public func entry(at path: String, inTree treeID: ObjectID) throws(GitError) -> TreeEntry? {
        var tree: OpaquePointer?
        var oid = treeID.raw
        try GitError.check(git_tree_lookup(&tree, pointer, &oid))
        defer { git_tree_free(tree) }
        var entry: OpaquePointer?
        let result = git_tree_entry_bypath(&entry, tree, path)
        if result == GIT_ENOTFOUND.rawValue { return nil }
        try GitError.check(result)
        defer { git_tree_entry_free(entry) }
        return TreeEntry(entry!)
    }

    /// The entries of one tree, in git's order (bytewise by name, directories as if suffixed by `/`).
    public func treeEntries(_ treeID: ObjectID) throws(GitError) -> [TreeEntry] {
        var tree: OpaquePointer?
        var oid = treeID.raw
        try GitError.check(git_tree_lookup(&tree, pointer, &oid))
        defer { git_tree_free(tree) }
        let count = git_tree_entrycount(tree)
        var entries: [TreeEntry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            entries.append(TreeEntry(git_tree_entry_byindex(tree, index)))
        }
        return entries
    }

    // MARK: - Commits

    /// A commit's parsed header fields.
    public func commit(_ id: ObjectID) throws(GitError) -> CommitInfo {
        var commit: OpaquePointer?
        var oid = id.raw
        try GitError.check(git_commit_lookup(&commit, pointer, &oid))
        defer { git_commit_free(commit) }
        var parents: [ObjectID] = []
        for index in 0..<git_commit_parentcount(commit) {
            parents.append(ObjectID(git_commit_parent_id(commit, index).pointee))
        }
        let header = git_commit_raw_header(commit).map { String(cString: $0) } ?? ""
        return CommitInfo(
            id: id, tree: ObjectID(git_commit_tree_id(commit).pointee), parents: parents,
            message: git_commit_message_raw(commit).map { String(cString: $0) } ?? "",
            time: Int64(git_commit_time(commit)), rawHeader: header)
    }

    /// The commit's `gpgsig` signature and the exact bytes it signs, or nil for an unsigned commit, as
    /// libgit2 computes them — for objects on disk only: libgit2 1.5 reads past the end of in-memory
    /// objects here. The ledger reads signatures with `CommitSignatureSplit`; the tests compare the two.
    /// The corresponding C function is `git_commit_extract_signature`.
    public func extractSignature(_ id: ObjectID) throws(GitError) -> (signature: String, signedData: [UInt8])? {
        var signature = git_buf()
        var signed = git_buf()
        defer {
            git_buf_dispose(&signature)
            git_buf_dispose(&signed)
        }
        var oid = id.raw
        let result = git_commit_extract_signature(&signature, &signed, pointer, &oid, nil)
        if result == GIT_ENOTFOUND.rawValue { return nil }
        try GitError.check(result)
        return (
            String(decoding: UnsafeRawBufferPointer(start: signature.ptr, count: signature.size), as: UTF8.self),
            Array(UnsafeRawBufferPointer(start: signed.ptr, count: signed.size))
        )
    }

    /// Commits reachable from `tip`, oldest first (parents before children).
    public func history(from tip: ObjectID, hiding hidden: ObjectID? = nil) throws(GitError) -> [ObjectID] {
        var walk: OpaquePointer?
        try GitError.check(git_revwalk_new(&walk, pointer))
        defer { git_revwalk_free(walk) }
        try GitError.check(git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_REVERSE.rawValue))
        var tipID = tip.raw
        try GitError.check(git_revwalk_push(walk, &tipID))
        if var hiddenID = hidden?.raw { try GitError.check(git_revwalk_hide(walk, &hiddenID)) }
        var ids: [ObjectID] = []
        var oid = git_oid()
        while true {
            let result = git_revwalk_next(&oid, walk)
            if result == GIT_ITEROVER.rawValue { break }
            try GitError.check(result)
            ids.append(ObjectID(oid))
        }
        return ids
    }

    /// Whether `descendant` has `ancestor` in its history (or is it).
    public func isDescendant(_ descendant: ObjectID, of ancestor: ObjectID) throws(GitError) -> Bool {
        if descendant == ancestor { return true }
        var a = descendant.raw
        var b = ancestor.raw
        return try GitError.check(git_graph_descendant_of(pointer, &a, &b)) == 1
    }
}

public struct CommitInfo: Sendable {
    public let id: ObjectID
    public let tree: ObjectID
    public let parents: [ObjectID]
    public let message: String
    public let time: Int64
    public let rawHeader: String

    /// A commit not in any repository: what `inspect` judges a one-file candidate as.
    package init(id: ObjectID, tree: ObjectID, parents: [ObjectID], message: String, time: Int64, rawHeader: String) {
        self.id = id
        self.tree = tree
        self.parents = parents
        self.message = message
        self.time = time
        self.rawHeader = rawHeader
    }
}

/// One entry of a git tree.
public struct TreeEntry: Sendable {
    public enum Kind: Sendable { case blob, tree, commit, other }

    public let name: String
    public let id: ObjectID
    /// The git file mode (`0o100644`, `0o040000`, `0o120000` symlink, `0o160000` gitlink…).
    public let mode: UInt32
    public let kind: Kind

    /// An entry read from a tree's bytes: its kind as libgit2 reads the mode (`git_tree_entry_type`: a
    /// gitlink is a commit, a folder a tree, any other mode a blob).
    package init(name: String, id: ObjectID, mode: UInt32) {
        self.name = name
        self.id = id
        self.mode = mode
        switch mode & 0o170000 {
        case 0o160000: kind = .commit
        case 0o040000: kind = .tree
        default: kind = .blob
        }
    }

    init(_ entry: OpaquePointer) {
        name = String(cString: git_tree_entry_name(entry))
        id = ObjectID(git_tree_entry_id(entry).pointee)
        mode = git_tree_entry_filemode_raw(entry).rawValue
        switch git_tree_entry_type(entry) {
        case GIT_OBJECT_BLOB: kind = .blob
        case GIT_OBJECT_TREE: kind = .tree
        case GIT_OBJECT_COMMIT: kind = .commit
        default: kind = .other
        }
    }
}

extension Repository {
    /// The entries that differ between two trees (nil = the empty tree), by a merge-join over libgit2's
    /// sorted entries: equal entries are skipped without building anything, so comparing two 256-entry
    /// fan-out folders that differ in one file costs one `TreeEntry`, not 512.
    /// The corresponding C function is `git_tree_entry_cmp`.
    public func changedEntries(old: ObjectID?, new: ObjectID?) throws(GitError) -> [(old: TreeEntry?, new: TreeEntry?)]
    {
        func lookup(_ id: ObjectID?) throws(GitError) -> OpaquePointer? {
            guard var oid = id?.raw else { return nil }
            var tree: OpaquePointer?
            try GitError.check(git_tree_lookup(&tree, pointer, &oid))
            return tree
        }
        let oldTree = try lookup(old)
        defer { git_tree_free(oldTree) }
        let newTree = try lookup(new)
        defer { git_tree_free(newTree) }
        let oldCount = oldTree.map { git_tree_entrycount($0) } ?? 0
        let newCount = newTree.map { git_tree_entrycount($0) } ?? 0
        var changes: [(old: TreeEntry?, new: TreeEntry?)] = []
        var i = 0
        var j = 0
        while i < oldCount || j < newCount {
            let a = i < oldCount ? git_tree_entry_byindex(oldTree, i) : nil
            let b = j < newCount ? git_tree_entry_byindex(newTree, j) : nil
            if let a, let b {
                let order = git_tree_entry_cmp(a, b)
                if order == 0 {
                    if git_oid_equal(git_tree_entry_id(a), git_tree_entry_id(b)) == 0
                        || git_tree_entry_filemode_raw(a).rawValue != git_tree_entry_filemode_raw(b).rawValue
                    {
                        changes.append((TreeEntry(a), TreeEntry(b)))
                    }
                    i += 1
                    j += 1
                } else if order < 0 {
                    changes.append((TreeEntry(a), nil))
                    i += 1
                } else {
                    changes.append((nil, TreeEntry(b)))
                    j += 1
                }
            } else if let a {
                changes.append((TreeEntry(a), nil))
                i += 1
            } else if let b {
                changes.append((nil, TreeEntry(b)))
                j += 1
            }
        }
        return changes
    }
}
