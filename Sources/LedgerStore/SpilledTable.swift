#if canImport(Glibc)
    import Glibc
#endif

/// A ``SortedTable`` file a long run spilled a map to (``LayeredMap/Spill``), read with `pread`, never
/// mapped: the file's bytes stay in the page cache, not in the process.
///
/// Mapped, a table read at random stays resident: on this machine's kernel a read fault maps the file's
/// whole large folio (up to a mebibyte of a file just written), so the lookups of a few commits made most of
/// a spill table resident (docs/DECISIONS.md, "A long run keeps its growing state in tables"). Here the
/// first key of every block of entries (about 4 KiB of them, at least 8 entries) is held in memory; a lookup
/// finds its block among them and reads the block's offsets and entries with two `pread`s, comparing keys in
/// the bytes read. A filter of the table's keys (``KeyFilter``), built as the table was written, answers most
/// lookups of a key the table does not hold without reading at all.
///
/// The file is the run's own (written whole by this process, removed once opened), so its checksum is not
/// read; reads still stay inside the file whatever its bytes say.
final class SpilledTable: @unchecked Sendable {
    let header: SortedTable.Header
    private let descriptor: Int32
    private let offsetsStart: Int
    private let entriesStart: Int
    private let entriesEnd: Int
    /// How many entries a block holds (the last one may hold fewer).
    let blockSize: Int
    /// The keys of entries 0, `blockSize`, 2 · `blockSize`, …
    private var blockKeys: [[UInt8]] = []
    /// Every key the table holds (and a few more).
    private let filter: KeyFilter

    /// The table at `path`, of `kind`, whose every key `filter` holds; nil when it cannot be read. The file may
    /// be removed once this returns.
    init?(path: String, kind: String, filter: KeyFilter) {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        var first = [UInt8](repeating: 0, count: 512)
        guard fstat(descriptor, &info) == 0, info.st_size > 0,
            let read = Self.read(descriptor, into: &first, at: 0), read > 0,
            let (header, offsetsStart) = first[..<read].withUnsafeBytes({ SortedTable.header($0, kind: kind) })
        else {
            close(descriptor)
            return nil
        }
        let size = Int(info.st_size)
        let entriesStart = offsetsStart + 8 * (header.count + 1)
        guard size - 4 >= entriesStart else {
            close(descriptor)
            return nil
        }
        self.header = header
        self.filter = filter
        self.descriptor = descriptor
        self.offsetsStart = offsetsStart
        self.entriesStart = entriesStart
        entriesEnd = size - 4
        let averageEntry = header.count == 0 ? 1 : max(1, (entriesEnd - entriesStart) / header.count)
        blockSize = max(8, 4096 / averageEntry)
        var keys: [[UInt8]] = []
        keys.reserveCapacity(header.count / blockSize + 1)
        for first in Swift.stride(from: 0, to: header.count, by: blockSize) {
            keys.append(withBlock(first / blockSize, entries: 1) { SortedTable.split($0.first ?? [][...]).key })
        }
        blockKeys = keys
    }

    deinit { close(descriptor) }

    /// Reads up to `buffer.count` bytes at `offset`; nil on an error.
    private static func read(_ descriptor: Int32, into buffer: inout [UInt8], at offset: Int) -> Int? {
        buffer.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return 0 }
            return readFully(descriptor, into: base, count: bytes.count, at: offset)
        }
    }

    /// Calls `body` with the bytes of the first `entries` entries of block `block` (each an entry's bytes:
    /// its key length, key and value), read with two `pread`s. A read that fails stops the program: the
    /// file is this run's own, and a lookup that went on would take a key it could not read for one the
    /// map does not hold.
    private func withBlock<Result>(
        _ block: Int, entries: Int? = nil, _ body: ([ArraySlice<UInt8>]) -> Result
    ) -> Result {
        let first = block * blockSize
        let last = min(first + (entries ?? blockSize), first + blockSize, header.count)
        var offsetBytes = [UInt8](repeating: 0, count: 8 * (last - first + 1))
        guard Self.read(descriptor, into: &offsetBytes, at: offsetsStart + 8 * first) == offsetBytes.count else {
            Self.unreadable()
        }
        let area = UInt64(entriesEnd - entriesStart)
        let offsets = offsetBytes.withUnsafeBytes { raw in
            (0...(last - first)).map {
                Int(min(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * $0, as: UInt64.self)), area))
            }
        }
        let start = offsets[0]
        var bytes = [UInt8](repeating: 0, count: max(0, offsets[offsets.count - 1] - start))
        guard Self.read(descriptor, into: &bytes, at: entriesStart + start) == bytes.count else { Self.unreadable() }
        let slices = (0..<(last - first)).map { index in
            let from = min(bytes.count, max(0, offsets[index] - start))
            return bytes[from..<min(bytes.count, max(from, offsets[index + 1] - start))]
        }
        return body(slices)
    }

    private static func unreadable() -> Never {
        preconditionFailure("a table spilled to the temporary folder could not be read back: errno \(errno)")
    }

    /// The value stored under `key`, nil when the table has none.
    func value(for key: [UInt8]) -> [UInt8]? {
        guard filter.mayContain(key), let block = block(holding: key) else { return nil }
        return withBlock(block) { entries in
            for entry in entries {
                let (keyRange, valueRange) = SortedTable.ranges(of: entry.indices, in: entry)
                let order = entry[keyRange].withUnsafeBytes { stored in
                    key.withUnsafeBytes { SortedTable.compare(stored, $0) }
                }
                if order == 0 { return Array(entry[valueRange]) }
                if order > 0 { return nil }
            }
            return nil
        }
    }

    /// Whether the table holds `key`.
    func contains(_ key: [UInt8]) -> Bool { value(for: key) != nil }

    /// The block whose first key is the last one not after `key`; nil when `key` comes before them all.
    private func block(holding key: [UInt8]) -> Int? {
        var low = 0
        var high = blockKeys.count
        while low < high {
            let middle = (low + high) / 2
            if SortedTable.compare(blockKeys[middle], key) <= 0 { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// Reads the entries in order, a block at a time.
    struct Reader {
        let table: SpilledTable
        private var block = -1
        private var entries: [(key: [UInt8], value: [UInt8])] = []

        init(_ table: SpilledTable) { self.table = table }

        /// Entry `index`'s key and value (`index` below the count).
        mutating func entry(at index: Int) -> (key: [UInt8], value: [UInt8]) {
            let wanted = index / table.blockSize
            if wanted != block {
                block = wanted
                entries = table.withBlock(wanted) { $0.map(SortedTable.split) }
            }
            let position = index % table.blockSize
            return position < entries.count ? entries[position] : ([], [])
        }
    }
}
