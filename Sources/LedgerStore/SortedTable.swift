internal import CZlib
internal import LedgerFormat

#if canImport(Glibc)
    import Glibc
#endif

/// One file of local state as a sorted table — entries (key bytes → value bytes) in key order, found by
/// binary search in the file mapped into memory, so a lookup touches a few pages and opening the file
/// does not decode it. What lets a run that continues from a checkpoint read only what it touches
/// (``LayeredMap``).
///
/// Bytes: the line `onym-ledger table 2 <kind> <tip hex> <base hex> <count> <note> <base identity> <entries>\n`; then `count + 1`
/// offsets (8 bytes each, little-endian) of the entries from the start of the entry area, the last one its
/// end; then the entries, each a LEB128 key length, the key and the value; then the CRC-32 (zlib's) of all
/// the bytes before it, 4 bytes little-endian. `<base>` is 40 zeros for a full table, else the tip of the
/// full table this one (a delta) continues; `<note>` is a number the owner keeps with the table; `<base
/// identity>` is `-`, or in a delta the full table's ``FileIdentity`` when it was last checked whole or
/// when the run that wrote it recorded it; `<entries>` is how many entries the map holds with this file
/// (a full table: its count; a delta: the full table's and the keys the delta adds), so a map loads
/// without reading its delta's keys.
///
/// Local state, never input: a file whose header, checksum or offsets are wrong does not open (the owner
/// rebuilds what it held), and every read stays inside the mapping whatever the bytes say. A full table
/// whose identity a delta records as checked is not checksummed again (opening it then reads only its
/// header): the full table is never rewritten in place, so an unchanged identity is an unchanged file.
public final class SortedTable: @unchecked Sendable {
    public struct Header: Equatable, Sendable {
        public var kind: String
        public var tip: ObjectID
        /// The full table a delta continues; nil for a full table.
        public var base: ObjectID?
        public var count: Int
        public var note: UInt64
        /// In a delta: the full table's file identity when it was last checked whole.
        public var baseIdentity: String?
        /// How many entries the map holds with this file: `count` for a full table; for a delta, the full
        /// table's entries and the keys the delta adds.
        public var entries: Int

        public init(
            kind: String, tip: ObjectID, base: ObjectID?, count: Int, note: UInt64, baseIdentity: String? = nil,
            entries: Int? = nil
        ) {
            self.kind = kind
            self.tip = tip
            self.base = base
            self.count = count
            self.note = note
            self.baseIdentity = baseIdentity
            self.entries = entries ?? count
        }
    }

    static let magic = "onym-ledger table 2"
    static let noBase = String(repeating: "0", count: 40)

    public let header: Header
    /// The file's identity when it was opened: the trusted one it still has, else nil when it changed within
    /// the last two seconds.
    public let identity: String?
    /// Whether opening checked the whole file (its checksum and offsets), rather than trusting an identity.
    public let checkedWhole: Bool
    private let mapping: UnsafeRawBufferPointer
    private let offsetsStart: Int
    private let entriesStart: Int
    private let entriesEnd: Int

    private init(
        header: Header, identity: String?, checkedWhole: Bool, mapping: UnsafeRawBufferPointer, offsetsStart: Int
    ) {
        self.header = header
        self.identity = identity
        self.checkedWhole = checkedWhole
        self.mapping = mapping
        self.offsetsStart = offsetsStart
        entriesStart = offsetsStart + 8 * (header.count + 1)
        entriesEnd = mapping.count - 4
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: mapping.baseAddress), mapping.count) }

    // MARK: - Writing

    /// Writes the table `header` describes to `path` (``DurableFile``: a temporary file renamed over it),
    /// streamed: `entry(i)` gives entry `i`'s key and value, for `i` from 0 to `header.count - 1`, keys in
    /// increasing byte order (`compare(_:_:)`) and distinct. Each entry is encoded into
    /// the file as it is given; what is held until the end is its offset, 8 bytes an entry — the offsets
    /// come before the entries in the file, so they are written over the room left for them, and the
    /// checksum is combined from the checksums of the parts (`crc32_combine`).
    /// `isComplete` is asked once the entries are written, before the file replaces the old one: false (the
    /// source had more entries than the header counts) stops the program with the old file in place.
    static func write(
        header: Header, to path: String, mode: mode_t, durable: Bool, entry: (Int) -> (key: [UInt8], value: [UInt8]),
        isComplete: () -> Bool = { true }
    ) throws(DurableFile.WriteError) {
        try DurableFile.write(to: path, mode: mode, durable: durable) { (output) throws(DurableFile.WriteError) in
            try encode(header: header, into: &output, entry: entry)
            precondition(isComplete(), "a table's source holds more entries than its header counts")
        }
    }

    private static func encode(
        header: Header, into output: inout FileOutput, entry: (Int) -> (key: [UInt8], value: [UInt8])
    ) throws(DurableFile.WriteError) {
        var headerLine = "\(magic) \(header.kind) \(header.tip.hex) \(header.base?.hex ?? noBase) "
        headerLine += "\(header.count) \(header.note) \(header.baseIdentity ?? "-") \(header.entries)\n"
        let headerBytes = Array(headerLine.utf8)
        try output.append(headerBytes)
        let offsetsStart = output.position
        let offsetsLength = 8 * (header.count + 1)
        try output.appendZeros(offsetsLength)
        let entriesStart = output.position

        var offsets: [UInt64] = [0]
        offsets.reserveCapacity(header.count + 1)
        var entriesChecksum = crc32(0, nil, 0)
        var encoded = ByteWriter(reserving: 256)
        var previousKey: [UInt8]? = nil
        for index in 0..<header.count {
            let (key, value) = entry(index)
            precondition(previousKey.map { compare($0, key) < 0 } ?? true, "sorted table keys out of order")
            previousKey = key
            encoded.reset()
            encoded.raw(key)
            encoded.append(value)
            try encoded.bytes.withUnsafeBufferPointer { (bytes) throws(DurableFile.WriteError) in
                entriesChecksum = crc32_z(entriesChecksum, bytes.baseAddress, bytes.count)
                try output.append(UnsafeRawBufferPointer(bytes))
            }
            offsets.append(UInt64(output.position - entriesStart))
        }
        let entriesLength = output.position - entriesStart

        let offsetBytes = offsets.map(\.littleEndian)
        try offsetBytes.withUnsafeBufferPointer { (offsets) throws(DurableFile.WriteError) in
            try output.overwrite(UnsafeRawBufferPointer(offsets), at: offsetsStart)
        }
        var checksum = headerBytes.withUnsafeBufferPointer { crc32_z(0, $0.baseAddress, $0.count) }
        let offsetsChecksum = offsetBytes.withUnsafeBytes {
            crc32_z(0, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count)
        }
        checksum = crc32_combine(checksum, offsetsChecksum, off_t(offsetsLength))
        checksum = crc32_combine(checksum, entriesChecksum, off_t(entriesLength))
        try withUnsafeBytes(of: UInt32(truncatingIfNeeded: checksum).littleEndian) {
            (raw) throws(DurableFile.WriteError) in try output.append(raw)
        }
    }

    // MARK: - Opening

    /// The table at `path` if it is one of `kind`, whole and consistent; nil otherwise. With `trusted`, the
    /// identity it had when it was last checked whole: if it still has it, only its header is read.
    public static func open(_ path: String, kind: String, trusted: String? = nil) -> SortedTable? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0, info.st_size < Int64(1) << 40 else { return nil }
        let size = Int(info.st_size)
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else { return nil }
        let mapping = UnsafeRawBufferPointer(start: address, count: size)
        let trust = trusted != nil && FileIdentity.of(info) == trusted
        let identity = trust ? trusted : FileIdentity.of(info, before: FileIdentity.now())
        guard let (header, offsetsStart) = validated(mapping, kind: kind, whole: !trust) else {
            munmap(address, size)
            return nil
        }
        return SortedTable(
            header: header, identity: identity, checkedWhole: !trust, mapping: mapping, offsetsStart: offsetsStart)
    }

    /// The header line at the start of `bytes` (at most its first 512 bytes are read) if it is a table of
    /// `kind`, and where the offsets start.
    static func header(_ bytes: UnsafeRawBufferPointer, kind: String) -> (Header, offsetsStart: Int)? {
        guard let newline = bytes.prefix(512).firstIndex(of: 0x0A) else { return nil }
        let fields = String(decoding: bytes[..<newline], as: UTF8.self).split(
            separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 10, fields[0...2].joined(separator: " ") == magic, fields[3] == kind,
            let tip = ObjectID(hexString: String(fields[4])),
            let count = Int(fields[6]), count >= 0, count < Int.max / 16, let note = UInt64(fields[7]),
            !fields[8].isEmpty, let entries = Int(fields[9]), entries >= 0
        else { return nil }
        let base = fields[5] == noBase ? nil : ObjectID(hexString: String(fields[5]))
        guard fields[5] == noBase ? entries == count : base != nil else { return nil }
        let header = Header(
            kind: kind, tip: tip, base: base, count: count, note: note,
            baseIdentity: fields[8] == "-" ? nil : String(fields[8]), entries: entries)
        return (header, newline + 1)
    }

    private static func validated(_ bytes: UnsafeRawBufferPointer, kind: String, whole: Bool) -> (Header, Int)? {
        guard bytes.count >= 4, let (header, offsetsStart) = header(bytes, kind: kind) else { return nil }
        let count = header.count
        let offsetBytes = 8 * (count + 1)
        guard bytes.count - 4 - offsetsStart >= offsetBytes else { return nil }
        guard whole else { return (header, offsetsStart) }
        let stored = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: bytes.count - 4, as: UInt32.self))
        let computed = UInt32(crc32_z(0, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count - 4))
        guard stored == computed else { return nil }
        // Offsets start at 0, never decrease, and the last one ends the entry area exactly.
        let area = UInt64(bytes.count - 4 - offsetsStart - offsetBytes)
        var previous: UInt64 = 0
        for index in 0...count {
            let offset = UInt64(
                littleEndian: bytes.loadUnaligned(fromByteOffset: offsetsStart + 8 * index, as: UInt64.self))
            guard index > 0 ? offset > previous : offset == 0 else { return nil }
            previous = offset
        }
        guard previous == area else { return nil }
        return (header, offsetsStart)
    }

    // MARK: - Reading

    /// Where entry `index` starts in the mapping, kept inside the entry area whatever the file says.
    private func start(_ index: Int) -> Int {
        let stored = UInt64(
            littleEndian: mapping.loadUnaligned(fromByteOffset: offsetsStart + 8 * index, as: UInt64.self))
        return entriesStart + Int(min(stored, UInt64(entriesEnd - entriesStart)))
    }

    /// Entry `index`'s key and value ranges in the mapping (empty ranges when its bytes are inconsistent).
    private func entry(_ index: Int) -> (key: Range<Int>, value: Range<Int>) {
        let start = start(index)
        return Self.ranges(of: start..<max(start, self.start(index + 1)), in: mapping)
    }

    /// An entry's bytes split into its key (after the LEB128 length) and value (the rest); both empty when
    /// the length does not fit.
    static func split(_ entry: ArraySlice<UInt8>) -> (key: [UInt8], value: [UInt8]) {
        let (key, value) = ranges(of: entry.indices, in: entry)
        return (Array(entry[key]), Array(entry[value]))
    }

    /// The key's and the value's ranges of the entry at `entry` in `bytes`: a LEB128 key length, the key,
    /// the value (both empty, at the entry's end, when the length does not fit in it). The one reading of an
    /// entry, for a mapped table and a spilled one.
    static func ranges<Bytes: Collection<UInt8>>(of entry: Range<Int>, in bytes: Bytes) -> (
        key: Range<Int>, value: Range<Int>
    ) where Bytes.Index == Int {
        let end = entry.upperBound
        var cursor = entry.lowerBound
        var length = 0
        var shift = 0
        while cursor < end, shift < 63 {
            let byte = bytes[cursor]
            cursor += 1
            length |= Int(byte & 0x7F) << shift
            if byte & 0x80 == 0 { break }
            shift += 7
        }
        guard length >= 0, length <= end - cursor else { return (end..<end, end..<end) }
        return (cursor..<cursor + length, cursor + length..<end)
    }

    /// Gives back the pages of the mapping that reads have touched (`MADV_DONTNEED`; the mapping is private
    /// and read-only, so the next read fetches them from the file again).
    public func releasePages() {
        madvise(UnsafeMutableRawPointer(mutating: mapping.baseAddress), mapping.count, MADV_DONTNEED)
    }

    /// The value stored under `key`, nil when the table has none.
    public func value(for key: [UInt8]) -> [UInt8]? {
        search(key).map { Array(mapping[$0.value]) }
    }

    /// Whether the table holds `key` (its value not copied).
    public func contains(_ key: [UInt8]) -> Bool {
        search(key) != nil
    }

    /// The entry stored under `key`, by binary search.
    private func search(_ key: [UInt8]) -> (key: Range<Int>, value: Range<Int>)? {
        var low = 0
        var high = header.count
        while low < high {
            let middle = (low + high) / 2
            let found = entry(middle)
            let order = key.withUnsafeBytes { Self.compare(UnsafeRawBufferPointer(rebasing: mapping[found.key]), $0) }
            if order == 0 { return found }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Entry `index`'s key and value bytes (`index` below the count).
    func entryBytes(at index: Int) -> (key: [UInt8], value: [UInt8]) {
        let found = entry(index)
        return (Array(mapping[found.key]), Array(mapping[found.value]))
    }

    /// Every entry, in key order.
    public func forEach(_ body: (_ key: [UInt8], _ value: [UInt8]) -> Void) {
        for index in 0..<header.count {
            let found = entry(index)
            body(Array(mapping[found.key]), Array(mapping[found.value]))
        }
    }

    /// Byte-wise order, a shorter key first when one is the other's prefix.
    static func compare(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Int {
        let common = min(left.count, right.count)
        if common > 0, let a = left.baseAddress, let b = right.baseAddress {
            let order = memcmp(a, b, common)
            if order != 0 { return order < 0 ? -1 : 1 }
        }
        return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
    }

    static func compare(_ left: [UInt8], _ right: [UInt8]) -> Int {
        left.withUnsafeBytes { a in right.withUnsafeBytes { b in compare(a, b) } }
    }
}
