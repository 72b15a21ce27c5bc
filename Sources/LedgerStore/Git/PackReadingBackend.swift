internal import CLibgit2

#if canImport(Glibc)
    import Glibc
#endif

/// A libgit2 object backend over the repository's packs read with ``PackFile`` (`pread`, never mapped),
/// put in place of libgit2's own pack backend by ``Repository/openForReading(_:)``. Loose objects are
/// still read by libgit2's loose backend; libgit2 hashes every object a backend returns and refuses one
/// whose bytes do not match its id (strict hash verification, on by default), so an object this reader got
/// wrong could not pass as another.
///
/// One per repository handle, used by its thread only. The packs are listed when it is made and again when
/// libgit2 asks it to refresh (on a lookup that found nothing: a pack written since).
final class PackReadingBackend {
    private let folder: String
    private var packs: [PackFile] = []
    private var known: Set<String> = []
    /// The pack that held the last object found: the next one is likely there too.
    private var lastHit = 0
    /// Objects located before, by the low bits of their ids: libgit2 asks for an object's header and then
    /// for the object, and the verifier reads trees and commits raw before libgit2 parses them (a
    /// 10^5-entry ledger's 190 000 objects took 397 000 lookups with 256 of these, 241 000 with 4 096).
    private var recent = [(id: PackedObjectID, pack: Int, offset: Int)?](repeating: nil, count: 4096)

    /// Whether the packs keep their index's offsets once read (``Repository/openForReading(_:keepingOffsets:)``).
    private let keepingOffsets: Bool

    init(objectsFolder: String, keepingOffsets: Bool) {
        self.keepingOffsets = keepingOffsets
        folder = objectsFolder + (objectsFolder.hasSuffix("/") ? "" : "/") + "pack/"
        refresh()
    }

    /// Opens the packs not open yet, the largest first (where most lookups end). A pack that cannot be
    /// opened — no index yet, an index not its own, one being written or removed by a repack — is left out
    /// and tried again at the next refresh: its objects are not found, as with libgit2's pack backend
    /// (`pack_entry_find` passes over a pack whose index does not load), and the other packs and the loose
    /// objects are read as before.
    func refresh() {
        for name in PackFolder.names(in: folder, endingIn: ".pack").sorted() where !known.contains(name) {
            guard let pack = try? PackFile(folder: folder, name: name, keepingOffsets: keepingOffsets) else { continue }
            packs.append(pack)
            known.insert(name)
        }
        packs.sort { $0.objectCount > $1.objectCount }
        lastHit = 0
        recent = recent.map { _ in nil }
    }

    /// The pack holding `id` and the object's offset in it; nil when no pack lists it.
    func locate(_ id: PackedObjectID) throws(PackFile.Unreadable) -> (pack: PackFile, offset: Int)? {
        guard !packs.isEmpty else { return nil }
        let slot = Int(id.low) & (recent.count - 1)
        if let hit = recent[slot], hit.id == id { return (packs[hit.pack], hit.offset) }
        for step in 0..<packs.count {
            let position = (lastHit + step) % packs.count
            if let offset = try packs[position].offset(of: id) {
                lastHit = position
                recent[slot] = (id, position, offset)
                return (packs[position], offset)
            }
        }
        return nil
    }

    /// The pack and offset of the object `id` probably is, for a read that checks the object's bytes against
    /// `id` (``Repository/readBlob(_:within:)``): `confirmed` when the index's ids were compared, else the one
    /// object whose id begins alike (``PackFile/candidate(for:)``), which the caller confirms by its hash or
    /// asks ``locate(_:)`` for. Nil only when no pack holds `id`.
    func locateCandidate(_ id: PackedObjectID) throws(PackFile.Unreadable) -> (
        pack: PackFile, offset: Int, confirmed: Bool
    )? {
        guard !packs.isEmpty else { return nil }
        let slot = Int(id.low) & (recent.count - 1)
        if let hit = recent[slot], hit.id == id { return (packs[hit.pack], hit.offset, true) }
        for step in 0..<packs.count {
            let position = (lastHit + step) % packs.count
            switch try packs[position].candidate(for: id) {
            case .absent:
                continue
            case .candidate(let offset):
                lastHit = position
                return (packs[position], offset, false)
            case .unknown:
                guard let offset = try packs[position].offset(of: id) else { continue }
                lastHit = position
                recent[slot] = (id, position, offset)
                return (packs[position], offset, true)
            }
        }
        return nil
    }

    // MARK: - libgit2's side

    /// A `git_odb_backend` whose callbacks reach this reader: the C struct, then a pointer to the reader
    /// (retained until libgit2 frees the backend).
    static func make(objectsFolder: String, keepingOffsets: Bool) -> UnsafeMutablePointer<git_odb_backend> {
        let reader = PackReadingBackend(objectsFolder: objectsFolder, keepingOffsets: keepingOffsets)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: ownerOffset + 8, alignment: 16)
        let backend = memory.bindMemory(to: git_odb_backend.self, capacity: 1)
        backend.initialize(to: git_odb_backend())
        git_odb_init_backend(backend, UInt32(GIT_ODB_BACKEND_VERSION))
        memory.storeBytes(
            of: Unmanaged.passRetained(reader).toOpaque(), toByteOffset: ownerOffset, as: UnsafeMutableRawPointer.self)
        backend.pointee.read = { data, size, type, backend, id in
            PackReadingBackend.call(backend, id) { reader, id throws(PackFile.Unreadable) in
                guard let (pack, offset) = try reader.locate(id) else { return GIT_ENOTFOUND.rawValue }
                let object = try pack.object(at: offset)
                guard let buffer = git_odb_backend_data_alloc(backend, max(object.bytes.count, 1)) else {
                    return GIT_ERROR.rawValue
                }
                object.bytes.withUnsafeBytes { bytes in
                    if let source = bytes.baseAddress { buffer.copyMemory(from: source, byteCount: bytes.count) }
                }
                data?.pointee = buffer
                size?.pointee = object.bytes.count
                type?.pointee = git_object_t(rawValue: Int32(object.type))
                return 0
            }
        }
        backend.pointee.read_header = { size, type, backend, id in
            PackReadingBackend.call(backend, id) { reader, id throws(PackFile.Unreadable) in
                guard let (pack, offset) = try reader.locate(id) else { return GIT_ENOTFOUND.rawValue }
                let header = try pack.typeAndSize(at: offset)
                size?.pointee = header.size
                type?.pointee = git_object_t(rawValue: Int32(header.type))
                return 0
            }
        }
        // libgit2 reads any non-zero answer as "found": an index that cannot be read answers 0.
        backend.pointee.exists = { backend, id in
            PackReadingBackend.call(backend, id) { reader, id throws(PackFile.Unreadable) in
                (try? reader.locate(id)).flatMap { $0 } == nil ? 0 : 1
            }
        }
        // libgit2 calls `foreach` without checking for it; nothing that reads a ledger lists every object.
        backend.pointee.foreach = { _, _, _ in
            git_error_set_str(Int32(GIT_ERROR_ODB.rawValue), "listing every object is not supported here")
            return GIT_ERROR.rawValue
        }
        backend.pointee.refresh = { backend in
            guard let backend else { return GIT_ERROR.rawValue }
            PackReadingBackend.owner(of: backend).refresh()
            return 0
        }
        backend.pointee.free = { backend in
            guard let backend else { return }
            let memory = UnsafeMutableRawPointer(backend)
            Unmanaged<PackReadingBackend>.fromOpaque(
                memory.load(fromByteOffset: PackReadingBackend.ownerOffset, as: UnsafeMutableRawPointer.self)
            ).release()
            backend.deinitialize(count: 1)
            memory.deallocate()
        }
        return backend
    }

    /// Where the reader's pointer sits after the C struct.
    private static let ownerOffset = (MemoryLayout<git_odb_backend>.stride + 15) / 16 * 16

    static func owner(of backend: UnsafeMutablePointer<git_odb_backend>) -> PackReadingBackend {
        Unmanaged<PackReadingBackend>.fromOpaque(
            UnsafeMutableRawPointer(backend).load(fromByteOffset: ownerOffset, as: UnsafeMutableRawPointer.self)
        ).takeUnretainedValue()
    }

    /// Runs `body` for the backend's reader and the id asked for; an unreadable pack becomes libgit2's error
    /// (its message naming the pack, the offset and what is wrong).
    private static func call(
        _ backend: UnsafeMutablePointer<git_odb_backend>?, _ id: UnsafePointer<git_oid>?,
        _ body: (PackReadingBackend, PackedObjectID) throws(PackFile.Unreadable) -> Int32
    ) -> Int32 {
        guard let backend, let id else { return GIT_ERROR.rawValue }
        let packed = withUnsafeBytes(of: id.pointee.id) { PackedObjectID($0, at: 0) }
        do throws(PackFile.Unreadable) {
            return try body(owner(of: backend), packed)
        } catch {
            git_error_set_str(Int32(GIT_ERROR_ODB.rawValue), error.reason)
            return GIT_ERROR.rawValue
        }
    }
}

extension Repository {
    /// Opens an existing repository for reading, its packs read by the project's own reader with `pread`
    /// (`PackFile`) instead of libgit2's, which maps every pack index whole: a 10^7-entry ledger's indexes
    /// made ~480 MB of a verify's resident memory. Loose objects are read by libgit2 as before.
    /// The corresponding C functions are `git_odb_new`, `git_odb_backend_loose`, `git_odb_add_backend` and
    /// `git_repository_set_odb`.
    /// - Parameter keepingOffsets: whether the packs keep their index's offsets once read (`PackFile`): for a
    ///   handle that reads most of a ledger's objects — the verifier's reading thread — it halves the
    ///   `pread`s a lookup costs, at up to 4 bytes an object; a handle that reads a few objects here and
    ///   there would keep a block of 64 for each one.
    public static func openForReading(_ path: String, keepingOffsets: Bool = false) throws(GitError) -> Repository {
        let repository = try open(path)
        var odb: OpaquePointer?
        try GitError.check(git_odb_new(&odb))
        defer { git_odb_free(odb) }
        // The common folder: a linked worktree's objects are its main repository's.
        let common = String(cString: git_repository_commondir(repository.pointer))
        let objects = common + (common.hasSuffix("/") ? "" : "/") + "objects"
        var loose: UnsafeMutablePointer<git_odb_backend>?
        try GitError.check(git_odb_backend_loose(&loose, objects, -1, 0, 0, 0))
        // The priorities libgit2 gives its own loose and pack backends. A backend the database did not take
        // is freed here (once added, the database frees it).
        let added = git_odb_add_backend(odb, loose, 1)
        if added < 0 { loose?.pointee.free(loose) }
        try GitError.check(added)
        let packed = PackReadingBackend.make(objectsFolder: objects, keepingOffsets: keepingOffsets)
        let addedPacked = git_odb_add_backend(odb, packed, 2)
        if addedPacked < 0 { packed.pointee.free(packed) }
        try GitError.check(addedPacked)
        repository.packReader = PackReadingBackend.owner(of: packed)
        try GitError.check(git_repository_set_odb(repository.pointer, odb))
        return repository
    }
}
