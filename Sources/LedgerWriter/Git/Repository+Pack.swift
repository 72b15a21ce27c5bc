internal import CLibgit2
#if canImport(Glibc)
    import Glibc
#endif

extension Repository {
    /// Adds an in-memory object backend in front of the object database, so every object written
    /// afterwards (blobs, trees, the commit) stays in memory until ``writePack(for:parent:)``.
    ///
    /// Loose objects measured ~5k writes/s here against ~45k/s in memory, and a pack per batch is one
    /// file (plus its index) instead of one file per object (LIBGIT2-OPENSSL-NOTES.md §5a).
    /// The backend cannot be detached again: use this handle for one append only.
    /// The corresponding C functions are `git_mempack_new` and `git_odb_add_backend`.
    public func attachInMemoryObjects() throws(GitError) {
        var odb: OpaquePointer?
        try GitError.check(git_repository_odb(&odb, pointer))
        defer { git_odb_free(odb) }
        var backend: UnsafeMutablePointer<git_odb_backend>?
        try GitError.check(git_mempack_new(&backend))
        // The ODB takes ownership of the backend.
        try GitError.check(git_odb_add_backend(odb, backend, 999))
        memoryBackend = backend
    }

    /// Writes one pack holding exactly the objects `commit` adds on top of `parent` (nothing the
    /// parent already reaches), into the repository's `objects/pack`, fsynced, before any ref moves.
    /// The corresponding C functions are `git_packbuilder_insert_walk` and `git_packbuilder_write`.
    public func writePack(for commit: ObjectID, parent: ObjectID?) throws(GitError) {
        var walk: OpaquePointer?
        try GitError.check(git_revwalk_new(&walk, pointer))
        defer { git_revwalk_free(walk) }
        var commitID = commit.raw
        try GitError.check(git_revwalk_push(walk, &commitID))
        if var parentID = parent?.raw { try GitError.check(git_revwalk_hide(walk, &parentID)) }
        var builder: OpaquePointer?
        try GitError.check(git_packbuilder_new(&builder, pointer))
        defer { git_packbuilder_free(builder) }
        // Deltas cost CPU at write time for little gain on small, distinct JSON records.
        git_packbuilder_set_threads(builder, 1)
        try GitError.check(git_packbuilder_insert_walk(builder, walk))
        try GitError.check(git_packbuilder_write(builder, nil, 0, nil, nil))
        var odb: OpaquePointer?
        try GitError.check(git_repository_odb(&odb, pointer))
        defer { git_odb_free(odb) }
        try GitError.check(git_odb_refresh(odb))
    }
}

extension Repository {
    /// Packs every object reachable from `tip` into one new pack, then deletes the other packs and
    /// loose objects it replaces. Appends write one pack per batch; many packs slow every lookup,
    /// so a long-lived ledger is repacked now and then (commit ids never change).
    /// The corresponding C functions are `git_packbuilder_insert_walk` and `git_packbuilder_write`.
    /// - Returns: how many pack files were replaced.
    @discardableResult
    public func repackAll(tip: ObjectID) throws(GitError) -> Int {
        let packDirectory = gitDirectory + "objects/pack/"
        let before = Self.packNames(in: packDirectory)
        var walk: OpaquePointer?
        try GitError.check(git_revwalk_new(&walk, pointer))
        defer { git_revwalk_free(walk) }
        var tipID = tip.raw
        try GitError.check(git_revwalk_push(walk, &tipID))
        var builder: OpaquePointer?
        try GitError.check(git_packbuilder_new(&builder, pointer))
        defer { git_packbuilder_free(builder) }
        try GitError.check(git_packbuilder_insert_walk(builder, walk))
        try GitError.check(git_packbuilder_write(builder, nil, 0, nil, nil))
        let written = ObjectID(git_packbuilder_hash(builder).pointee).hex
        var removed = 0
        for name in before where !name.contains(written) {
            unlink(packDirectory + name + ".pack")
            unlink(packDirectory + name + ".idx")
            removed += 1
        }
        return removed
    }

    private static func packNames(in directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".idx") { names.append(String(name.dropLast(4))) }
        }
        return names
    }
}
