internal import CLibgit2
public import LedgerStore
#if canImport(Glibc)
    import Glibc
#endif

extension Repository {
    /// Adds an in-memory object backend in front of the object database, so every object written
    /// afterwards (blobs, trees, the commit) stays in memory until ``writePack(for:parent:)``.
    ///
    /// Loose objects measured ~5k writes/s here against ~45k/s in memory, and a pack per batch is one
    /// file (plus its index) instead of one file per object.
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

}

extension Repository {
    /// Packs every object reachable from `tip` into one new pack, then deletes the other packs and
    /// loose objects it replaces. Appends write one pack per batch; many packs slow every lookup,
    /// so a long-lived ledger is repacked now and then (commit ids never change).
    /// The corresponding C functions are `git_packbuilder_insert_walk` and `git_packbuilder_write`.
    /// - Returns: how many pack files were replaced.
    @discardableResult
    public func repackAll(tip: ObjectID) throws(GitError) -> Int {
        let packDirectory = PackFolder.path(gitDirectory: gitDirectory)
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

    static func packNames(in directory: String) -> [String] {
        PackFolder.names(in: directory, endingIn: ".idx")
    }
}

extension Repository {
    /// Writes the objects one append made — its blobs, the folders its tree changed, the commit — as
    /// one pack with ``PackWriter`` (no delta search; see its discussion), before any ref moves.
    public func writeBatchPack(commit: ObjectID, parent: ObjectID?, blobs: [ObjectID]) throws(GitError) {
        var ids: [ObjectID] = []
        var seen: Set<ObjectID> = []
        for blob in blobs where seen.insert(blob).inserted { ids.append(blob) }
        let newTree = try self.commit(commit).tree
        let oldTree = try parent.map { (id: ObjectID) throws(GitError) in try self.commit(id).tree }
        try collectNewTrees(new: newTree, old: oldTree, into: &ids, seen: &seen)
        ids.append(commit)

        var odb: OpaquePointer?
        try GitError.check(git_repository_odb(&odb, pointer))
        defer { git_odb_free(odb) }
        var objects: [PackWriter.Object] = []
        objects.reserveCapacity(ids.count)
        for id in ids { objects.append(try Self.object(id, in: odb)) }
        let directory = PackFolder.path(gitDirectory: gitDirectory)
        do {
            _ = try PackWriter.write(objects, into: directory)
        } catch {
            throw GitError.fail(error.description)
        }
        PackWriter.syncFolder(directory)
        try GitError.check(git_odb_refresh(odb))
    }

    /// Trees under `new` that `old` does not have at the same path (the folders an append rewrote).
    private func collectNewTrees(new: ObjectID, old: ObjectID?, into ids: inout [ObjectID], seen: inout Set<ObjectID>)
        throws(GitError)
    {
        guard new != old else { return }
        if seen.insert(new).inserted { ids.append(new) }
        var oldEntries: [String: TreeEntry] = [:]
        if let old {
            for entry in try treeEntries(old) { oldEntries[entry.name] = entry }
        }
        for entry in try treeEntries(new) where entry.kind == .tree {
            let previous = oldEntries[entry.name]
            guard previous?.id != entry.id else { continue }
            try collectNewTrees(
                new: entry.id, old: previous?.kind == .tree ? previous?.id : nil, into: &ids, seen: &seen)
        }
    }
}

extension Repository {
    /// How many packs may accumulate before ``consolidatePacks()`` merges the small ones.
    public static let packLimit = 8

    /// Geometric consolidation: when more than ``packLimit`` packs exist, the smallest ones — every
    /// pack not at least twice as large as all smaller packs together — are merged into one with
    /// ``PackWriter``, then removed. Each object is rewritten O(log n) times over a ledger's life,
    /// and lookups stay fast (libgit2 searches every pack index for every object).
    /// The same merge in steps, its writing on another thread, is `PackMerge`.
    /// - Returns: how many packs were merged (0 when none needed it).
    @discardableResult
    public func consolidatePacks() throws(GitError) -> Int {
        guard let merge = PackMerge.planned(gitDirectory: gitDirectory), let written = try merge.write() else {
            return 0
        }
        merge.removeMerged(keeping: written)
        var odb: OpaquePointer?
        try GitError.check(git_repository_odb(&odb, pointer))
        defer { git_odb_free(odb) }
        try GitError.check(git_odb_refresh(odb))
        return merge.packs.count
    }

    /// One object read whole from the object database, for a pack.
    func object(_ id: ObjectID) throws(GitError) -> PackWriter.Object {
        var odb: OpaquePointer?
        try GitError.check(git_repository_odb(&odb, pointer))
        defer { git_odb_free(odb) }
        return try Self.object(id, in: odb)
    }

    /// One object read whole from `odb`, for a pack.
    static func object(_ id: ObjectID, in odb: OpaquePointer?) throws(GitError) -> PackWriter.Object {
        var object: OpaquePointer?
        var oid = id.raw
        try GitError.check(git_odb_read(&object, odb, &oid))
        defer { git_odb_object_free(object) }
        let size = git_odb_object_size(object)
        let data = size == 0 ? [] : Array(UnsafeRawBufferPointer(start: git_odb_object_data(object), count: size))
        return PackWriter.Object(id: id, type: git_odb_object_type(object), data: data)
    }

    /// When a pack was written (its file's modification time), for merging packs oldest first.
    static func writtenAt(_ path: String) -> (seconds: Int, nanoseconds: Int)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (info.st_mtim.tv_sec, info.st_mtim.tv_nsec)
    }
}
