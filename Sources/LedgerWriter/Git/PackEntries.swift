import LedgerStore

#if canImport(Glibc)
    import Glibc
#endif

/// One pack's entries in the order they lie in the pack, read from its version-2 index and then, in that
/// order, from the pack itself — so merging packs can copy each entry as it is (``PackWriter/addEntry(_:_:crc:)``)
/// instead of inflating and deflating it again.
struct PackEntries {
    struct Entry {
        let id: PackedObjectID
        let offset: Int
        let crc: UInt32
    }

    /// The entries, by offset.
    let entries: [Entry]
    /// Where the last entry ends: the pack's size less its 20-byte checksum.
    let end: Int

    /// Lists the pack `name` in `directory` (``PackIndex``); nil when its index is not version 2 or does
    /// not fit the pack.
    init?(_ name: String, in directory: String) {
        guard let index = Self.contents(of: directory + name + ".idx"),
            let listed = try? index.withUnsafeBytes(PackIndex.entries)
        else { return nil }
        var info = stat()
        guard stat(directory + name + ".pack", &info) == 0 else { return nil }
        let end = Int(info.st_size) - 20
        let entries = listed.map { Entry(id: $0.id, offset: $0.offset, crc: $0.crc) }
            .sorted { $0.offset < $1.offset }
        guard entries.allSatisfy({ $0.offset >= 12 && $0.offset < end }) else { return nil }
        for (earlier, later) in zip(entries, entries.dropFirst()) where earlier.offset == later.offset { return nil }
        self.entries = entries
        self.end = end
    }

    /// How many objects the index at `path` lists (read from its header alone), nil when it is not version 2.
    static func count(inIndex path: String) -> Int? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var header = [UInt8](repeating: 0, count: PackIndex.headerSize)
        guard fread(&header, 1, header.count, file) == header.count else { return nil }
        return header.withUnsafeBytes { PackIndex.count(header: $0) }
    }

    private static func contents(of path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var info = stat()
        guard fstat(fileno(file), &info) == 0, info.st_size >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        guard bytes.isEmpty || fread(&bytes, 1, bytes.count, file) == bytes.count else { return nil }
        return bytes
    }

    /// Calls `body` with each entry's position and the entry, and its bytes (object header and deflated
    /// data, valid during the call), in pack order, reading the pack front to back a few MiB at a time.
    /// Throws when the pack cannot be read.
    func forEachEntry(
        in path: String, _ body: (Int, Entry, UnsafeRawBufferPointer) throws(PackWriter.PackError) -> Void
    ) throws(PackWriter.PackError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw PackWriter.PackError(description: "\(path): open failed (errno \(errno))") }
        defer { close(descriptor) }
        var buffer: [UInt8] = []
        var bufferStart = 0
        for (position, entry) in entries.enumerated() {
            let stop = position + 1 < entries.count ? entries[position + 1].offset : end
            if stop > bufferStart + buffer.count || entry.offset < bufferStart {
                let length = max(stop - entry.offset, 4 << 20)
                buffer = [UInt8](repeating: 0, count: min(length, end - entry.offset))
                let read = buffer.withUnsafeMutableBytes {
                    pread(descriptor, $0.baseAddress, $0.count, off_t(entry.offset))
                }
                guard read == buffer.count else {
                    throw PackWriter.PackError(description: "\(path): short read at \(entry.offset)")
                }
                bufferStart = entry.offset
            }
            try buffer.withUnsafeBufferPointer { (all) throws(PackWriter.PackError) in
                let bytes = UnsafeBufferPointer(rebasing: all[(entry.offset - bufferStart)..<(stop - bufferStart)])
                try body(position, entry, UnsafeRawBufferPointer(bytes))
            }
        }
    }
}
