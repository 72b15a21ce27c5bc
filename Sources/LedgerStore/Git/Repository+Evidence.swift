internal import CLibgit2

/// Reading objects as evidence: the exact bytes of a signed commit, and a `git bundle` of a history
/// that an auditor must be able to hand to anyone (checkable with stock `git bundle verify`).
extension Repository {
    /// Whether the object database holds `id`. The corresponding C function is `git_odb_exists`.
    public func contains(_ id: ObjectID) throws(GitError) -> Bool {
        var odb: OpaquePointer?
        try GitError.check(git_repository_odb(&odb, pointer))
        defer { git_odb_free(odb) }
        var oid = id.raw
        return git_odb_exists(odb, &oid) == 1
    }

    /// The raw bytes of a commit object (headers, `gpgsig`, message): what `git cat-file commit` prints.
    public func rawCommit(_ id: ObjectID, limit: Int = 1 << 20) throws(GitError) -> [UInt8] {
        guard let bytes = try rawObject(id, type: GIT_OBJECT_COMMIT, limit: limit) else {
            throw GitError.fail("\(id.hex) is not a commit of at most \(limit) bytes")
        }
        return bytes
    }

    /// The raw bytes of a tree object, read only when the object header says it is a tree of at most
    /// `limit` bytes (so a hostile object costs nothing before it is refused); nil otherwise.
    public func rawTree(_ id: ObjectID, limit: Int) throws(GitError) -> [UInt8]? {
        try rawObject(id, type: GIT_OBJECT_TREE, limit: limit)
    }

    /// An object's raw bytes when its header names `type` and at most `limit` bytes; nil otherwise.
    private func rawObject(_ id: ObjectID, type expected: git_object_t, limit: Int) throws(GitError) -> [UInt8]? {
        let header = try objectHeader(id)
        guard header.type == Int(expected.rawValue), header.size <= limit else { return nil }
        return try objectBytes(id).bytes
    }

    /// Any object as the object database gives it: the type and size its header gives, and its type and
    /// bytes read whole.
    package func anyObject(_ id: ObjectID) throws(GitError) -> (
        header: (type: Int, size: Int), type: Int, bytes: [UInt8]
    ) {
        let header = try objectHeader(id)
        let object = try objectBytes(id)
        return (header, object.type, object.bytes)
    }

    /// An object's type and size from its header, nothing inflated but what the backend needs.
    /// The corresponding C function is `git_odb_read_header`.
    private func objectHeader(_ id: ObjectID) throws(GitError) -> (type: Int, size: Int) {
        var odb: OpaquePointer?
        try GitError.check(git_repository_odb(&odb, pointer))
        defer { git_odb_free(odb) }
        var oid = id.raw
        var size = 0
        var type = GIT_OBJECT_INVALID
        try GitError.check(git_odb_read_header(&size, &type, odb, &oid))
        return (Int(type.rawValue), size)
    }

    /// An object's type and bytes. The corresponding C function is `git_odb_read`.
    private func objectBytes(_ id: ObjectID) throws(GitError) -> (type: Int, bytes: [UInt8]) {
        var odb: OpaquePointer?
        try GitError.check(git_repository_odb(&odb, pointer))
        defer { git_odb_free(odb) }
        var oid = id.raw
        var object: OpaquePointer?
        try GitError.check(git_odb_read(&object, odb, &oid))
        defer { git_odb_object_free(object) }
        let length = git_odb_object_size(object)
        let bytes = length == 0 ? [] : Array(UnsafeRawBufferPointer(start: git_odb_object_data(object), count: length))
        return (Int(git_odb_object_type(object).rawValue), bytes)
    }

    /// A version-2 git bundle holding the history of `tip` that `base` does not reach (everything, when
    /// `base` is nil), its ref named `refName`, and `base` as its prerequisite.
    ///
    /// The corresponding C functions are `git_packbuilder_insert_walk` and `git_packbuilder_write_buf`.
    public func bundle(tip: ObjectID, excluding base: ObjectID?, refName: String) throws(GitError) -> [UInt8] {
        var walk: OpaquePointer?
        try GitError.check(git_revwalk_new(&walk, pointer))
        defer { git_revwalk_free(walk) }
        var tipID = tip.raw
        try GitError.check(git_revwalk_push(walk, &tipID))
        if var baseID = base?.raw { try GitError.check(git_revwalk_hide(walk, &baseID)) }
        var builder: OpaquePointer?
        try GitError.check(git_packbuilder_new(&builder, pointer))
        defer { git_packbuilder_free(builder) }
        try GitError.check(git_packbuilder_insert_walk(builder, walk))
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        try GitError.check(git_packbuilder_write_buf(&buffer, builder))
        var header = "# v2 git bundle\n"
        if let base { header += "-\(base.hex) the history both tips share\n" }
        header += "\(tip.hex) \(refName)\n\n"
        return Array(header.utf8) + Array(UnsafeRawBufferPointer(start: buffer.ptr, count: buffer.size))
    }

    /// The newest commit both `a` and `b` reach, if any. The corresponding C function is `git_merge_base`.
    public func mergeBase(_ a: ObjectID, _ b: ObjectID) throws(GitError) -> ObjectID? {
        var out = git_oid()
        var first = a.raw
        var second = b.raw
        let result = git_merge_base(&out, pointer, &first, &second)
        if result == GIT_ENOTFOUND.rawValue { return nil }
        try GitError.check(result)
        return ObjectID(out)
    }
}
