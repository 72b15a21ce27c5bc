internal import CLibgit2
import LedgerFormat
import LedgerStore
internal import COpenSSL

#if canImport(Glibc)
    import Glibc
#endif

/// Writes git packs (version 2, no deltas) with their version-2 index: one batch's new objects, or the
/// entries of older packs merged.
///
/// libgit2's pack builder spent ~9.6 s of an 11 s, 100 000-record append searching for deltas and
/// re-hashing: a ledger batch is thousands of small, distinct JSON files, and deltas buy little.
/// This writer deflates each object once (level 1, ``PackEntryDeflater``) — or copies an entry another
/// pack already holds, as git's repack reuses objects — streams the pack to a temporary file while hashing
/// it, computes the index from what it wrote, and makes the pack visible atomically: `.pack` then `.idx`,
/// each written to a temporary name, fsynced and renamed (git treats a pack as present once its `.idx` is).
/// See BENCHMARKS.md.
final class PackWriter {
    struct Object: Sendable {
        let id: ObjectID
        let type: git_object_t
        let data: [UInt8]
    }

    struct PackError: Error, Sendable, CustomStringConvertible { let description: String }

    /// Writes `objects` into `directory` (a repository's `objects/pack/`); returns the pack's name.
    ///
    /// Deflating is the pack's CPU work: it runs on both cores, `slice` objects at a time (what is held
    /// deflated at once), and the entries are written in the objects' order.
    static func write(_ objects: [Object], into directory: String, slice: Int = 4096) throws(PackError) -> String {
        let writer = try PackWriter(directory: directory, count: objects.count)
        var start = 0
        while start < objects.count {
            let part = Array(objects[start..<min(start + slice, objects.count)])
            let entries = parallelMap(part) { object in Result { () throws(PackError) in try Self.entry(object) } }
            for (object, entry) in zip(part, entries) {
                let bytes = try entry.get()
                try bytes.withUnsafeBufferPointer { (buffer) throws(PackError) in
                    let raw = UnsafeRawBufferPointer(buffer)
                    try writer.addEntry(PackedObjectID(object.id), raw, crc: Self.crc(raw))
                }
            }
            start += part.count
        }
        return try writer.finish()
    }

    private let directory: String
    private let temporaryPack: String
    private var descriptor: Int32
    private var context: OpaquePointer?
    private var buffer: [UInt8] = []
    private var offset = 0
    private let expected: Int
    private var entries: [(id: PackedObjectID, offset: Int, crc: UInt32)] = []

    /// Starts a pack of `count` objects in `directory`, written to a temporary file until ``finish(indexOrder:)``.
    init(directory: String, count: Int) throws(PackError) {
        self.directory = directory
        expected = count
        temporaryPack = directory + "pack-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).pack.tmp"
        descriptor = open(temporaryPack, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o444)
        guard descriptor >= 0 else {
            throw PackError(description: "\(temporaryPack): open failed (errno \(errno))")
        }
        context = EVP_MD_CTX_new()
        guard context != nil, EVP_DigestInit_ex(context, EVP_sha1(), nil) == 1 else {
            abandon()
            throw PackError(description: "SHA-1 unavailable")
        }
        entries.reserveCapacity(count)
        var header: [UInt8] = Array("PACK".utf8)
        Self.appendUInt32(&header, 2)
        Self.appendUInt32(&header, UInt32(count))
        try emit(header)
    }

    deinit { abandon() }

    /// Adds `object`, deflated.
    func add(_ object: Object) throws(PackError) {
        try Self.entry(object).withUnsafeBufferPointer { (buffer) throws(PackError) in
            let entry = UnsafeRawBufferPointer(buffer)
            try addEntry(PackedObjectID(object.id), entry, crc: Self.crc(entry))
        }
    }

    /// `object` as a pack entry: its type-and-size header, then its bytes deflated (``PackEntryDeflater``).
    static func entry(_ object: Object) throws(PackError) -> [UInt8] {
        var entry: [UInt8] = []
        var size = object.data.count
        var byte = UInt8(truncatingIfNeeded: (Int(object.type.rawValue) << 4) | (size & 0x0F))
        size >>= 4
        while size > 0 {
            entry.append(byte | 0x80)
            byte = UInt8(truncatingIfNeeded: size & 0x7F)
            size >>= 7
        }
        entry.append(byte)
        try PackEntryDeflater.append(object.data, to: &entry)
        return entry
    }

    /// Adds an entry exactly as another pack stores it (object header and deflated data, no delta), whose
    /// CRC-32 that pack's index gives.
    func addEntry(_ id: PackedObjectID, _ bytes: UnsafeRawBufferPointer, crc: UInt32) throws(PackError) {
        guard entries.count < expected else { throw PackError(description: "more objects than the pack header says") }
        entries.append((id, offset, crc))
        try emit(bytes)
    }

    /// The CRC-32 of an entry's bytes, as a pack index records it.
    static func crc(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        PackEntryDeflater.crc32(bytes)
    }

    /// Ends the pack, writes its index and makes both visible; returns the pack's name.
    ///
    /// The index lists the entries by id: sorted here, unless the caller knows the order — a merge of
    /// packs (``PackMergeOrder``) gives `indexOrder`, the entries' numbers in the order they were added
    /// (from 0), listed by ascending id. It is checked before anything is made visible: every number once,
    /// the ids strictly ascending.
    func finish(indexOrder: [UInt32]? = nil) throws(PackError) -> String {
        guard entries.count == expected else { throw PackError(description: "fewer objects than the pack header says") }
        let listed: [(id: PackedObjectID, offset: Int, crc: UInt32)]
        if let indexOrder {
            guard indexOrder.count == entries.count, indexOrder.allSatisfy({ Int($0) < entries.count }) else {
                throw PackError(description: "the index order does not number the pack's entries")
            }
            listed = indexOrder.map { entries[Int($0)] }
            for (earlier, later) in zip(listed, listed.dropFirst()) where !(earlier.id < later.id) {
                throw PackError(description: "the index order does not list the ids ascending, each once")
            }
        } else {
            listed = entries.sorted { $0.id < $1.id }
        }
        var digest = [UInt8](repeating: 0, count: 20)
        try flush()
        guard EVP_DigestFinal_ex(context, &digest, nil) == 1 else { throw PackError(description: "SHA-1 failed") }
        try emit(digest, hashed: false)
        try flush()
        guard fsync(descriptor) == 0 else { throw PackError(description: "\(temporaryPack): fsync failed") }
        close(descriptor)
        descriptor = -1
        let name = "pack-" + ObjectID(bytes: digest).hex
        guard rename(temporaryPack, directory + name + ".pack") == 0 else {
            throw PackError(description: "\(directory + name).pack: rename failed (errno \(errno))")
        }
        try Self.writeDurably(Self.index(of: listed, packChecksum: digest), to: directory + name + ".idx")
        return name
    }

    /// The version-2 index: fan-out, sorted ids, CRCs, 4-byte offsets (the top bit set: the position of an
    /// 8-byte offset in the table after them, for offsets of 2 GiB and more), the pack's checksum, its own.
    private static func index(
        of entries: [(id: PackedObjectID, offset: Int, crc: UInt32)], packChecksum: [UInt8]
    ) -> [UInt8] {
        var index: [UInt8] = [0xFF, 0x74, 0x4F, 0x63]
        index.reserveCapacity(8 + 256 * 4 + entries.count * 28 + 40)
        Self.appendUInt32(&index, 2)
        var fanout = [UInt32](repeating: 0, count: 256)
        for entry in entries { fanout[Int(entry.id.firstByte)] += 1 }
        var running: UInt32 = 0
        for bucket in 0..<256 {
            running += fanout[bucket]
            Self.appendUInt32(&index, running)
        }
        for entry in entries { entry.id.append(to: &index) }
        for entry in entries { Self.appendUInt32(&index, entry.crc) }
        var large: [UInt8] = []
        for entry in entries {
            if entry.offset < 0x8000_0000 {
                Self.appendUInt32(&index, UInt32(entry.offset))
            } else {
                Self.appendUInt32(&index, 0x8000_0000 | UInt32(large.count / 8))
                Self.appendUInt32(&large, UInt32(truncatingIfNeeded: entry.offset >> 32))
                Self.appendUInt32(&large, UInt32(truncatingIfNeeded: entry.offset))
            }
        }
        index += large
        index += packChecksum
        var digest = [UInt8](repeating: 0, count: 20)
        let status = index.withUnsafeBufferPointer { input in
            EVP_Digest(input.baseAddress, input.count, &digest, nil, EVP_sha1(), nil)
        }
        precondition(status == 1, "EVP_Digest(SHA-1) failed")
        return index + digest
    }

    /// Appends `bytes` to the pack (hashed, unless it is the trailing checksum), writing in 1 MiB pieces.
    private func emit(_ bytes: [UInt8], hashed: Bool = true) throws(PackError) {
        try bytes.withUnsafeBufferPointer { (raw) throws(PackError) in
            try emit(UnsafeRawBufferPointer(raw), hashed: hashed)
        }
    }

    private func emit(_ bytes: UnsafeRawBufferPointer, hashed: Bool = true) throws(PackError) {
        if hashed {
            guard EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1 else {
                throw PackError(description: "SHA-1 failed")
            }
        }
        buffer.append(contentsOf: bytes)
        offset += bytes.count
        if buffer.count >= 1 << 20 { try flush() }
    }

    private func flush() throws(PackError) {
        var written = 0
        while written < buffer.count {
            let result = buffer.withUnsafeBytes {
                Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw PackError(description: "\(temporaryPack): write failed (errno \(errno))")
            }
            written += result
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Closes and removes an unfinished pack.
    private func abandon() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
            unlink(temporaryPack)
        }
        if context != nil {
            EVP_MD_CTX_free(context)
            context = nil
        }
    }

    /// Appends `value`'s four bytes, big-endian.
    private static func appendUInt32(_ bytes: inout [UInt8], _ value: UInt32) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// temp → write → fsync → rename (read-only, as git makes pack files). The temporary name carries the
    /// writer's pid, as the pack's does (``removeAbandoned(in:)``).
    private static func writeDurably(_ bytes: [UInt8], to path: String) throws(PackError) {
        let temporary = "\(path).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o444)
        guard fd >= 0 else { throw PackError(description: "\(temporary): open failed (errno \(errno))") }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                close(fd)
                unlink(temporary)
                throw PackError(description: "\(temporary): write failed (errno \(errno))")
            }
            written += result
        }
        guard fsync(fd) == 0 else {
            close(fd)
            unlink(temporary)
            throw PackError(description: "\(temporary): fsync failed")
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw PackError(description: "\(path): rename failed (errno \(errno))")
        }
    }
}

extension PackWriter {
    /// Makes the names a pack folder holds durable (its new packs' renames, before anything relies on them).
    /// - Returns: whether the folder was opened and synced.
    @discardableResult
    static func syncFolder(_ directory: String) -> Bool {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return fsync(fd) == 0
    }

    /// Removes the temporary files of packs and indexes whose writer is gone — killed while writing, as a
    /// pack's `.pack.tmp` (`pack-<pid>-<n>.pack.tmp`) or its index's (`pack-<id>.idx.<pid>.tmp`) — from
    /// `directory` (a repository's `objects/pack/`). Run by an appender holding the writer lock, so no writer
    /// that takes the lock is writing one; `init`, which writes its first pack without the lock, is told by
    /// its pid, which holds within one pid namespace (a writer in another container sharing the folder is
    /// not seen). A file whose process lives, or of this process, is left.
    /// - Returns: how many files were removed.
    @discardableResult
    static func removeAbandoned(in directory: String) -> Int {
        var removed = 0
        for name in PackFolder.names(in: directory, endingIn: ".tmp") where name.hasPrefix("pack-") {
            guard let pid = writer(ofTemporary: name), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else {
                continue
            }
            if unlink(directory + name + ".tmp") == 0 { removed += 1 }
        }
        return removed
    }

    /// The pid a temporary name (without `.tmp`) carries: `pack-<pid>-<n>.pack` or `pack-<id>.idx.<pid>`.
    static func writer(ofTemporary name: String) -> pid_t? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        let digits: Substring
        if parts.count == 2, parts[1] == "pack" {
            digits = parts[0].dropFirst("pack-".count).prefix { $0 != "-" }
        } else if parts.count == 3, parts[1] == "idx" {
            digits = parts[2]
        } else {
            return nil
        }
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }), let pid = pid_t(digits), pid > 0 else {
            return nil
        }
        return pid
    }
}

extension ObjectID {
    init(bytes: [UInt8]) {
        var oid = git_oid()
        withUnsafeMutableBytes(of: &oid.id) { $0.copyBytes(from: bytes) }
        self.init(oid)
    }
}
