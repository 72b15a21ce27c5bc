internal import CLibgit2
package import LedgerStore
#if canImport(Glibc)
    import Glibc
#endif

/// Low-level writes that bypass the ledger's rules. The verifier's tamper corpus uses them to build
/// the malformed histories an attacker could publish; the writer never does. `package` access: the tests
/// of this package use them; no library user can.
extension Repository {
    /// A tree edit: put a blob (with any mode) or a subtree/gitlink id at a path, or remove a path.
    package enum RawTreeEdit: Sendable {
        case upsert(path: String, id: ObjectID, mode: UInt32)
        case remove(path: String)
    }

    /// `base` (or the empty tree) with `edits` applied, allowing any mode (symlinks, gitlinks…).
    /// The corresponding C function is `git_tree_create_updated`.
    package func rawUpdatedTree(base: ObjectID?, edits: [RawTreeEdit]) throws(GitError) -> ObjectID {
        var baseTree: OpaquePointer?
        if var baseID = base?.raw {
            try GitError.check(git_tree_lookup(&baseTree, pointer, &baseID))
        }
        defer { git_tree_free(baseTree) }
        let paths: [UnsafeMutablePointer<CChar>] = edits.map { edit in
            switch edit {
            case .upsert(let path, _, _), .remove(let path): strdup(path)!
            }
        }
        defer { paths.forEach { free($0) } }
        var updates = zip(edits, paths).map { edit, path -> git_tree_update in
            switch edit {
            case .upsert(_, let id, let mode):
                return git_tree_update(
                    action: GIT_TREE_UPDATE_UPSERT, id: id.raw, filemode: git_filemode_t(rawValue: mode),
                    path: UnsafePointer(path))
            case .remove:
                return git_tree_update(
                    action: GIT_TREE_UPDATE_REMOVE, id: git_oid(), filemode: GIT_FILEMODE_BLOB,
                    path: UnsafePointer(path))
            }
        }
        var oid = git_oid()
        try GitError.check(git_tree_create_updated(&oid, pointer, baseTree, updates.count, &updates))
        return ObjectID(oid)
    }

    /// Writes an object of type `commit` with exactly these bytes (headers, signatures and message
    /// as given). The corresponding C function is `git_odb_write`.
    package func writeRawCommit(_ bytes: [UInt8]) throws(GitError) -> ObjectID {
        try writeRawObject(bytes, type: GIT_OBJECT_COMMIT)
    }

    /// Writes `bytes` as an object of `type`, unvalidated. The corresponding C function is `git_odb_write`.
    func writeRawObject(_ bytes: [UInt8], type: git_object_t) throws(GitError) -> ObjectID {
        var odb: OpaquePointer?
        try GitError.check(git_repository_odb(&odb, pointer))
        defer { git_odb_free(odb) }
        var oid = git_oid()
        let result = bytes.withUnsafeBytes { buffer in
            git_odb_write(&oid, odb, buffer.baseAddress, buffer.count, type)
        }
        try GitError.check(result)
        return ObjectID(oid)
    }

    /// Points `name` at `target` unconditionally (a force-push, as an attacker would).
    package func forceReference(_ name: String, to target: ObjectID) throws(GitError) {
        var reference: OpaquePointer?
        var id = target.raw
        try GitError.check(git_reference_create(&reference, pointer, name, &id, 1, nil))
        git_reference_free(reference)
    }
}

extension Repository {
    /// Writes a tree object with exactly these entries, unvalidated (names like `.git` or `..` that
    /// libgit2's tree builder refuses). Entries are sorted the way git sorts them.
    /// The corresponding C function is `git_odb_write`.
    package func writeRawTree(_ entries: [(name: String, mode: UInt32, id: ObjectID)]) throws(GitError) -> ObjectID {
        let sorted = entries.sorted { a, b in
            let left = Array(a.name.utf8) + (a.mode == 0o040000 ? [0x2F] : [])
            let right = Array(b.name.utf8) + (b.mode == 0o040000 ? [0x2F] : [])
            return left.lexicographicallyPrecedes(right)
        }
        var bytes: [UInt8] = []
        for entry in sorted {
            bytes += Array("\(String(entry.mode, radix: 8)) \(entry.name)".utf8)
            bytes.append(0)
            bytes += entry.id.bytes
        }
        return try writeRawObject(bytes, type: GIT_OBJECT_TREE)
    }

    /// Writes `bytes` as a tree object exactly as given (unsorted, duplicated, padded: anything).
    package func writeRawTreeBytes(_ bytes: [UInt8]) throws(GitError) -> ObjectID {
        try writeRawObject(bytes, type: GIT_OBJECT_TREE)
    }
}
