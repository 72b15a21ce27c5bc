import LedgerStore

#if canImport(Glibc)
    import Glibc
#endif

/// One pack's entries as its version-2 index lists them (in id order), and the order they lie in the pack —
/// so merging packs can read each pack front to back and copy each entry as it is
/// (``PackWriter/addEntry(_:_:crc:)``) instead of inflating and deflating it again.
struct PackEntries {
    /// The entries' ids, in the index's order (ascending in a well-formed index; an id may repeat when the
    /// pack holds an object twice).
    let ids: [PackedObjectID]
    /// Each entry's offset in the pack, by position in ``ids``.
    let offsets: [Int]
    /// Each entry's CRC-32 as the index records it, by position in ``ids``.
    let crcs: [UInt32]
    /// The positions in ``ids`` in the order their entries lie in the pack.
    let packOrder: [UInt32]
    /// Where the last entry ends: the pack's size less its 20-byte checksum.
    let end: Int

    /// Lists the pack `name` in `directory` (``PackIndex``); nil when its index is not version 2 or does
    /// not fit the pack (an offset outside it, two entries at one offset).
    init?(_ name: String, in directory: String) {
        guard let index = Self.contents(of: directory + name + ".idx") else { return nil }
        var info = stat()
        guard stat(directory + name + ".pack", &info) == 0 else { return nil }
        let end = Int(info.st_size) - 20
        guard
            let listed = index.withUnsafeBytes({ bytes -> (ids: [PackedObjectID], offsets: [Int], crcs: [UInt32])? in
                guard let table = try? PackIndex.Table(bytes) else { return nil }
                var listed: (ids: [PackedObjectID], offsets: [Int], crcs: [UInt32]) = ([], [], [])
                listed.ids.reserveCapacity(table.count)
                listed.offsets.reserveCapacity(table.count)
                listed.crcs.reserveCapacity(table.count)
                for entry in table {
                    listed.ids.append(entry.id)
                    listed.offsets.append(entry.offset)
                    listed.crcs.append(entry.crc)
                }
                return listed
            })
        else { return nil }
        guard listed.offsets.allSatisfy({ $0 >= 12 && $0 < end }) else { return nil }
        let packOrder = RadixOrder.positions(ascendingBy: listed.offsets)
        for (earlier, later) in zip(packOrder, packOrder.dropFirst())
        where listed.offsets[Int(earlier)] == listed.offsets[Int(later)] {
            return nil
        }
        (ids, offsets, crcs) = listed
        self.packOrder = packOrder
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

    /// Calls `body` with each entry's position in ``ids`` and its bytes (object header and deflated data,
    /// valid during the call), in pack order, reading the pack front to back a few MiB at a time.
    /// Throws when the pack cannot be read.
    func forEachEntry(
        in path: String, _ body: (Int, UnsafeRawBufferPointer) throws(PackWriter.PackError) -> Void
    ) throws(PackWriter.PackError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw PackWriter.PackError(description: "\(path): open failed (errno \(errno))") }
        defer { close(descriptor) }
        // One buffer (4 MiB, or the whole pack when smaller), grown when an entry needs more and refilled in
        // place: never zeroed, pread fills it.
        let window = 4 << 20
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, min(window, end)), alignment: 16)
        defer { buffer.deallocate() }
        var bufferStart = 0
        var bufferCount = 0
        for (step, position) in packOrder.enumerated() {
            let offset = offsets[Int(position)]
            let stop = step + 1 < packOrder.count ? offsets[Int(packOrder[step + 1])] : end
            if stop > bufferStart + bufferCount || offset < bufferStart {
                let length = min(max(stop - offset, window), end - offset)
                if length > buffer.count {
                    buffer.deallocate()
                    buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 16)
                }
                let read = pread(descriptor, buffer.baseAddress, length, off_t(offset))
                guard read == length else {
                    throw PackWriter.PackError(description: "\(path): short read at \(offset)")
                }
                bufferStart = offset
                bufferCount = length
            }
            try body(
                Int(position),
                UnsafeRawBufferPointer(rebasing: buffer[(offset - bufferStart)..<(stop - bufferStart)]))
        }
    }
}
