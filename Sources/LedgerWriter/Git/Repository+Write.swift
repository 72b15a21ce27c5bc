internal import CLibgit2
public import LedgerFormat
public import LedgerStore

#if canImport(Glibc)
    import Glibc
#endif

/// The writing half of the git layer: creating repositories, objects, commits and moving the branch.
/// The auditor's verifier reads through ``LedgerStore`` and never links this.
extension Repository {
    /// Creates a bare repository whose HEAD names `refs/heads/main`.
    public static func initBare(_ path: String, branch: String = "main") throws(GitError) -> Repository {
        GitLibrary.ensureInitialized()
        var options = git_repository_init_options()
        try GitError.check(git_repository_init_options_init(&options, UInt32(GIT_REPOSITORY_INIT_OPTIONS_VERSION)))
        options.flags = UInt32(
            GIT_REPOSITORY_INIT_BARE.rawValue | GIT_REPOSITORY_INIT_MKPATH.rawValue
                | GIT_REPOSITORY_INIT_NO_REINIT.rawValue)
        var repo: OpaquePointer?
        let result = branch.withCString { head in
            options.initial_head = head
            return git_repository_init_ext(&repo, path, &options)
        }
        try GitError.check(result)
        return Repository(takingOwnershipOf: repo!, path: path)
    }

    public func writeBlob(_ bytes: [UInt8]) throws(GitError) -> ObjectID {
        var oid = git_oid()
        if let backend = memoryBackend, let write = backend.pointee.write {
            // Straight into memory: the ODB's own write path would first probe every backend for the
            // object (a stat and a pack-directory rescan per miss — most of an append's time).
            let result = bytes.withUnsafeBytes { buffer -> Int32 in
                let hashed = git_odb_hash(&oid, buffer.baseAddress, buffer.count, GIT_OBJECT_BLOB)
                guard hashed == 0 else { return hashed }
                return write(backend, &oid, buffer.baseAddress, buffer.count, GIT_OBJECT_BLOB)
            }
            try GitError.check(result)
            return ObjectID(oid)
        }
        let result = bytes.withUnsafeBytes { buffer in
            git_blob_create_from_buffer(&oid, pointer, buffer.baseAddress, buffer.count)
        }
        try GitError.check(result)
        return ObjectID(oid)
    }

    /// A new tree: `base` (or the empty tree) with `upserts` applied (paths from the root; missing
    /// folders are created). Only the folders on the changed paths are rewritten.
    /// The corresponding C function is `git_tree_create_updated`.
    public func updatedTree(base: ObjectID?, upserts: [(path: String, blob: ObjectID)]) throws(GitError) -> ObjectID {
        var baseTree: OpaquePointer?
        if var baseID = base?.raw {
            try GitError.check(git_tree_lookup(&baseTree, pointer, &baseID))
        }
        defer { git_tree_free(baseTree) }
        // Keep the C strings alive for the duration of the call.
        let paths = upserts.map { strdup($0.path)! }
        defer { paths.forEach { free($0) } }
        var updates = zip(upserts, paths).map { upsert, path in
            git_tree_update(
                action: GIT_TREE_UPDATE_UPSERT, id: upsert.blob.raw, filemode: GIT_FILEMODE_BLOB,
                path: UnsafePointer(path))
        }
        var oid = git_oid()
        try GitError.check(git_tree_create_updated(&oid, pointer, baseTree, updates.count, &updates))
        return ObjectID(oid)
    }

    /// The unsigned commit buffer git will hash once the signature is added.
    /// The corresponding C function is `git_commit_create_buffer`.
    public func commitBuffer(tree: ObjectID, parent: ObjectID?, identity: CommitIdentity, message: String)
        throws(GitError) -> [UInt8]
    {
        var signature: UnsafeMutablePointer<git_signature>?
        try GitError.check(git_signature_new(&signature, identity.name, identity.email, identity.time, 0))
        defer { git_signature_free(signature) }
        var treeObject: OpaquePointer?
        var treeID = tree.raw
        try GitError.check(git_tree_lookup(&treeObject, pointer, &treeID))
        defer { git_tree_free(treeObject) }
        var parentObject: OpaquePointer?
        if var parentID = parent?.raw {
            try GitError.check(git_commit_lookup(&parentObject, pointer, &parentID))
        }
        defer { git_commit_free(parentObject) }
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        var parents: [OpaquePointer?] = parentObject.map { [$0] } ?? []
        let result = parents.withUnsafeMutableBufferPointer { parentPointers in
            git_commit_create_buffer(
                &buffer, pointer, signature, signature, nil, message, treeObject, parentPointers.count,
                parentPointers.baseAddress)
        }
        try GitError.check(result)
        return Array(UnsafeRawBufferPointer(start: buffer.ptr, count: buffer.size))
    }

    /// Writes a commit from `buffer` with `signature` in its `gpgsig` header.
    /// The corresponding C function is `git_commit_create_with_signature`.
    public func createSignedCommit(buffer: [UInt8], signature: String) throws(GitError) -> ObjectID {
        var oid = git_oid()
        let text = String(decoding: buffer, as: UTF8.self)
        try GitError.check(git_commit_create_with_signature(&oid, pointer, text, signature, nil))
        return ObjectID(oid)
    }

    /// Moves `name` to `target` only if it still points at `expected` (nil: only if it does not
    /// exist yet). A lost race throws ``GitError/Code/modified`` (or `exists` for a new ref).
    /// The corresponding C function is `git_reference_create_matching`.
    public func compareAndSwapReference(_ name: String, to target: ObjectID, expected: ObjectID?) throws(GitError) {
        var reference: OpaquePointer?
        var newID = target.raw
        let result: Int32
        if var current = expected?.raw {
            // force = 1 is required to update an existing ref; current_id makes it a compare-and-swap.
            result = git_reference_create_matching(&reference, pointer, name, &newID, 1, &current, nil)
        } else {
            result = git_reference_create(&reference, pointer, name, &newID, 0, nil)
        }
        try GitError.check(result)
        git_reference_free(reference)
    }

}
