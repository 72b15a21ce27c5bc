import LedgerStore

#if canImport(Glibc)
    import Glibc
#endif

/// One pack's entries in the order they lie in the pack, read from its version-2 index and then, in that
/// order, from the pack itself — so merging packs can copy each entry as it is (``PackWriter/addEntry(_:_:crc:)``)
/// instead of inflating and deflating it again.
struct PackEntries {
    struct Entry {
        let id: ObjectID
        let offset: Int
        let crc: UInt32
    }

    /// The entries, by offset.
    let entries: [Entry]
    /// Where the last entry ends: the pack's size less its 20-byte checksum.
    let end: Int

    /// Lists the pack `name` in `directory`; nil when its index is not version 2 or does not fit the pack.
    init?(_ name: String, in directory: String) {
        guard let file = fopen(directory + name + ".idx", "rb") else { return nil }
        defer { fclose(file) }
        var header = [UInt8](repeating: 0, count: 8 + 256 * 4)
        guard fread(&header, 1, header.count, file) == header.count, header[0..<4] == [0xFF, 0x74, 0x4F, 0x63],
            header[4..<8] == [0, 0, 0, 2]
        else { return nil }
        let count = Int(Self.word(header, 8 + 255 * 4, 4))
        // Nothing is allocated for more entries than the file holds.
        var indexInfo = stat()
        guard fstat(fileno(file), &indexInfo) == 0, Int(indexInfo.st_size) >= header.count + count * 28 + 40 else {
            return nil
        }
        // After the fan-out: the ids (20 bytes each), their CRCs (4), their offsets (4, or with the top bit
        // set the position of an 8-byte offset in the table that follows).
        var ids = [UInt8](repeating: 0, count: count * 20)
        var crcs = [UInt8](repeating: 0, count: count * 4)
        var offsets = [UInt8](repeating: 0, count: count * 4)
        guard
            count == 0
                || (fread(&ids, 1, ids.count, file) == ids.count && fread(&crcs, 1, crcs.count, file) == crcs.count
                    && fread(&offsets, 1, offsets.count, file) == offsets.count)
        else { return nil }
        let small = (0..<count).map { Self.word(offsets, $0 * 4, 4) }
        let largeCount = small.filter { $0 & 0x8000_0000 != 0 }.count
        var large = [UInt8](repeating: 0, count: largeCount * 8)
        guard largeCount == 0 || fread(&large, 1, large.count, file) == large.count else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            var offset = small[index]
            if offset & 0x8000_0000 != 0 {
                let slot = Int(offset & 0x7FFF_FFFF)
                guard slot < largeCount else { return nil }
                offset = Self.word(large, slot * 8, 8)
            }
            let id = ObjectID(bytes: Array(ids[(index * 20)..<(index * 20 + 20)]))
            entries.append(Entry(id: id, offset: Int(offset), crc: UInt32(Self.word(crcs, index * 4, 4))))
        }
        entries.sort { $0.offset < $1.offset }
        var info = stat()
        guard stat(directory + name + ".pack", &info) == 0 else { return nil }
        let end = Int(info.st_size) - 20
        guard entries.allSatisfy({ $0.offset >= 12 && $0.offset < end }) else { return nil }
        for (earlier, later) in zip(entries, entries.dropFirst()) where earlier.offset == later.offset { return nil }
        self.entries = entries
        self.end = end
    }

    /// The object ids, in pack order.
    var ids: [ObjectID] { entries.map(\.id) }

    /// Calls `body` with each entry and its bytes (object header and deflated data), in pack order, reading
    /// the pack front to back a few MiB at a time. Throws when the pack cannot be read.
    func forEachEntry(
        in path: String, _ body: (Entry, [UInt8]) throws(PackWriter.PackError) -> Void
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
            try body(entry, Array(buffer[(entry.offset - bufferStart)..<(stop - bufferStart)]))
        }
    }

    private static func word(_ bytes: [UInt8], _ at: Int, _ width: Int) -> UInt64 {
        bytes[at..<(at + width)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
