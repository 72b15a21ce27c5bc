internal import CZlib

#if canImport(Glibc)
    import Glibc
#endif

/// One git pack and its version-2 index, read with `pread`, never mapped: the bytes stay in the page
/// cache, outside the process.
///
/// libgit2 maps every pack index whole and binary-searches it for every object, and on this machine's
/// kernel a read fault maps a whole large folio of the file, so a long run kept most of its indexes
/// resident: ~480 MB of the 577 MB of a 10^7-entry ledger's (docs/DECISIONS.md, "The verifier reads packs
/// with pread"). Here the index's fan-out and the id of every ``sampleStride``-th object are held in memory
/// (~0.4 bytes an object); a lookup reads one block of ids and one offset (on a handle that keeps offsets,
/// once enough lookups have come, the ids' first five bytes are held too: ``candidate(for:)``). An object is read through
/// ``windowCount`` windows of ``windowSize`` bytes of the pack (a commit's objects lie close together, so
/// most reads find their bytes already read), inflated to exactly the size its header gives, and a delta is rebuilt on its base with ``PackDelta``;
/// the bases rebuilt are kept, up to ``baseCacheBytes``, for the deltas on them that follow.
///
/// Layouts from git's `gitformat-pack`: an object's header is its type (three bits) and size (a
/// little-endian base-128 number starting with four bits); an `OFS_DELTA` then names its base by a
/// distance back, an `REF_DELTA` by id (looked up in the same pack, as libgit2 does); the zlib stream
/// follows. Nothing here trusts the bytes: offsets stay inside the pack, sizes are checked as inflated, and
/// a delta chain longer than ``maxChainObjects`` is an error, not a loop.
final class PackFile {
    struct Unreadable: Error, Sendable {
        let reason: String
    }

    /// Object types as a pack (and libgit2's `git_object_t`) numbers them: commit, tree, blob, tag.
    typealias ObjectType = Int

    let name: String
    let objectCount: Int
    private let pack: ReadOnlyFile
    private let index: ReadOnlyFile
    /// Where the objects end: the pack's trailing checksum follows.
    private let objectsEnd: Int
    private let fanout: [Int]
    private let samples: [PackedObjectID]
    private let offsetsStart: Int
    private let largeOffsetsStart: Int
    private let largeOffsetCount: Int
    /// The last ``windowCount`` stretches of the pack read: `windowSize` bytes each, one buffer.
    private let windowBytes: UnsafeMutableRawPointer
    /// Where a lookup reads its block of ``sampleStride`` ids (one buffer, not an array a lookup).
    private let idBlock: UnsafeMutableRawPointer
    private var windows = [(start: Int, count: Int, used: Int)](repeating: (0, 0, 0), count: windowCount)
    private var reads = 0
    /// One zlib stream for every object, reset between them (starting one allocates its state afresh);
    /// allocated once, since zlib's state points back at it. Nil until the first object is inflated.
    private var stream: UnsafeMutablePointer<z_stream>?
    /// Whether the index's offsets are kept once read (`offsetBlocks`); otherwise each is read when needed.
    private let keepsOffsets: Bool
    /// The index's 4-byte offsets, read a block of ``sampleStride`` at a time the first time an object of the
    /// block is found and kept: a lookup then costs one `pread` (its block of ids) where it cost two. Zeroed
    /// memory from `calloc`, so only the blocks read take up memory — at most 4 bytes an object, when a full
    /// verify has found objects all over the index. A zero is an entry not read yet: no object sits at offset
    /// 0 (the pack's header is there), and an index naming it is refused by ``offset(at:)`` however often.
    private var offsetBlocks: UnsafeMutablePointer<UInt32>?
    /// On a handle that keeps offsets: bytes 1–4 of every id (byte 0 is the fan-out's), read in one pass once
    /// the pack has answered ``prefixTableAfter(_:)`` lookups, when one sequential read of its ids costs
    /// less than the block reads it spares. Then an id whose five first bytes no object shares is absent
    /// without a read, and a blob read (``candidate(for:)``) needs no read of the index at all: its hash,
    /// checked against the id, confirms it. 4 bytes an object.
    private var prefixes: UnsafeMutablePointer<UInt32>?
    private var lookups = 0
    /// Set once the table could not be read, or its ids are not in order: lookups stay exact from then on.
    private var prefixesUnusable = false
    private var bases: [Int: (type: ObjectType, bytes: [UInt8])] = [:]
    private var baseOrder: [Int] = []
    private var baseOrderStart = 0
    private var baseBytes = 0

    static let sampleStride = 64
    /// 16 windows of 16 KiB: reading a 10^5-entry ledger filled one 64 KiB window 84 000 times for its
    /// 190 000 objects (a commit's trees, blobs and commit are read in another order than written), one of
    /// 16 KiB 162 000 times, 16 of them 14 000 times.
    static let windowSize = 16 << 10
    static let windowCount = 16
    static let baseCacheBytes = 8 << 20
    /// Objects one delta chain may hold, as the pack scan counts them (`PackStructure`).
    static let maxChainObjects = 10_001
    /// The largest object, delta or object rebuilt from one, read: far above anything a ledger holds (a
    /// record is at most 256 KiB, a tree or commit 1 MiB), so a hostile size costs bounded memory.
    static let maxObjectBytes = 64 << 20
    /// Output room given past an object's declared size (``inflate(from:size:prefixOnly:)``): zlib's fast loop
    /// needs 258 bytes free.
    static let inflateSlack = 258
    /// The most bytes one read inflates and rebuilds over a whole delta chain: 10 000 deltas of 64 MiB would
    /// otherwise copy 640 GB for one object.
    static let maxBytesPerRead = 1 << 30

    /// Opens `name`.pack and `name`.idx in `folder`, checking that they belong together (the object count
    /// in both, the pack's checksum at the end of each) and that the index's tables fit its size.
    init(folder: String, name: String, keepingOffsets: Bool = false) throws(Unreadable) {
        self.name = name
        keepsOffsets = keepingOffsets
        // Each file closes itself when released, so an init that throws half way leaves nothing open.
        guard let pack = ReadOnlyFile(folder + name + ".pack"), let index = ReadOnlyFile(folder + name + ".idx") else {
            throw Unreadable(reason: "\(name): cannot open the pack and its index")
        }
        self.pack = pack
        self.index = index
        let header = try index.read(count: PackIndex.headerSize, at: 0)
        guard let count = header.withUnsafeBytes({ PackIndex.count(header: $0) }) else {
            throw Unreadable(reason: "\(name).idx: not a version-2 pack index")
        }
        objectCount = count
        fanout = header.withUnsafeBytes { bytes in
            (0..<256).map { Int(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 8 + 4 * $0, as: UInt32.self))) }
        }
        guard zip(fanout, fanout.dropFirst()).allSatisfy({ $0 <= $1 }) else {
            throw Unreadable(reason: "\(name).idx: the fan-out table decreases")
        }
        offsetsStart = PackIndex.headerSize + count * 24
        largeOffsetsStart = offsetsStart + count * 4
        let tablesEnd = index.size - 40
        guard tablesEnd >= largeOffsetsStart, (tablesEnd - largeOffsetsStart) % 8 == 0 else {
            throw Unreadable(reason: "\(name).idx: \(index.size) bytes do not hold the tables of \(count) objects")
        }
        largeOffsetCount = (tablesEnd - largeOffsetsStart) / 8
        guard pack.size >= 32 else { throw Unreadable(reason: "\(name).pack: too short to be a pack") }
        objectsEnd = pack.size - 20
        // An object takes at least 9 bytes (a header byte and the shortest zlib stream): an index listing
        // more than the pack can hold is refused before its ids are read.
        guard count <= (objectsEnd - 12) / 9 else {
            throw Unreadable(reason: "\(name).idx: lists \(count) objects, more than the pack can hold")
        }
        let packHeader = try pack.read(count: 12, at: 0)
        let packChecksum = try pack.read(count: 20, at: objectsEnd)
        let indexedChecksum = try index.read(count: 20, at: tablesEnd)
        let version = packHeader.withUnsafeBytes {
            UInt32(bigEndian: $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        }
        let packCount = packHeader.withUnsafeBytes {
            UInt32(bigEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        }
        guard Array(packHeader[0..<4]) == Array("PACK".utf8), version == 2 || version == 3 else {
            throw Unreadable(reason: "\(name).pack: not a version 2 or 3 pack")
        }
        guard Int(packCount) == count, packChecksum == indexedChecksum else {
            throw Unreadable(reason: "\(name).idx: the index is not the pack's (object count or checksum differ)")
        }
        samples = try Self.sample(index, count: count)
        windowBytes = UnsafeMutableRawPointer.allocate(byteCount: Self.windowSize * Self.windowCount, alignment: 16)
        idBlock = UnsafeMutableRawPointer.allocate(byteCount: Self.sampleStride * 20, alignment: 16)
    }

    deinit {
        windowBytes.deallocate()
        idBlock.deallocate()
        prefixes?.deallocate()
        free(offsetBlocks)
        if let stream {
            inflateEnd(stream)
            stream.deallocate()
        }
    }

    /// The stream reset for a new object, started on first use.
    private func freshStream() throws(Unreadable) -> UnsafeMutablePointer<z_stream> {
        if let stream {
            if inflateReset(stream) == Z_OK { return stream }
            // A stream zlib will not reset is ended and a new one started.
            inflateEnd(stream)
            stream.deallocate()
            self.stream = nil
        }
        let started = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        started.initialize(to: z_stream())
        guard inflateInit_(started, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            started.deallocate()
            throw Unreadable(reason: "zlib could not start")
        }
        stream = started
        return started
    }

    /// The ids of objects 0, ``sampleStride``, 2 · ``sampleStride``, …, read a mebibyte at a time.
    private static func sample(_ index: ReadOnlyFile, count: Int) throws(Unreadable) -> [PackedObjectID] {
        var samples: [PackedObjectID] = []
        samples.reserveCapacity((count + sampleStride - 1) / sampleStride)
        let chunk = sampleStride * 800
        var first = 0
        while first < count {
            let ids = min(chunk, count - first)
            let bytes = try index.read(count: ids * 20, at: PackIndex.headerSize + first * 20)
            bytes.withUnsafeBytes { raw in
                for position in stride(from: 0, to: ids, by: sampleStride) {
                    samples.append(PackedObjectID(raw, at: position * 20))
                }
            }
            first += ids
        }
        return samples
    }

    // MARK: - Lookup

    /// What the prefix table says of an id (``candidate(for:)``).
    enum Candidate {
        /// No object's id begins as this one's: the pack does not hold it.
        case absent
        /// Exactly one object's id begins as this one's: at this offset, to be confirmed by its hash.
        case candidate(offset: Int)
        /// No table yet, or several ids begin alike: ask ``offset(of:)``.
        case unknown
    }

    /// The lookups a pack answers before its prefix table is read: a 64th of its objects (and 1 024), so an
    /// incremental verify that reads a few thousand objects of a large pack never reads its whole index.
    static func prefixTableAfter(_ objectCount: Int) -> Int { max(1024, objectCount / 64) }

    /// The object `id` probably is, from the prefix table alone, for a caller that checks the object's bytes
    /// against `id` (a blob's hash) and asks ``offset(of:)`` when they do not match.
    func candidate(for id: PackedObjectID) throws(Unreadable) -> Candidate {
        guard let (low, high) = bucket(of: id) else { return .absent }
        // Not counted here: without a table the caller asks `offset(of:)`, which counts the lookup once.
        guard let found = prefixRange(of: id, low: low, high: high, counting: false) else { return .unknown }
        guard found.count == 1 else { return found.isEmpty ? .absent : .unknown }
        return .candidate(offset: try offset(at: found.lowerBound))
    }

    /// The index positions `id`'s fan-out bucket spans; nil when it is empty.
    private func bucket(of id: PackedObjectID) -> (low: Int, high: Int)? {
        let bucket = Int(id.firstByte)
        let low = bucket == 0 ? 0 : fanout[bucket - 1]
        let high = fanout[bucket]
        guard low < high, high <= objectCount else { return nil }
        return (low, high)
    }

    /// The positions in `low..<high` whose ids begin with `id`'s first five bytes; nil without a prefix
    /// table (read here once the pack has answered enough lookups, `counting` them).
    private func prefixRange(of id: PackedObjectID, low: Int, high: Int, counting: Bool = true) -> Range<Int>? {
        if counting { lookups += 1 }
        if prefixes == nil, keepsOffsets, !prefixesUnusable, lookups >= Self.prefixTableAfter(objectCount) {
            prefixes = readPrefixes()
            prefixesUnusable = prefixes == nil
        }
        guard let prefixes else { return nil }
        let prefix = UInt32(truncatingIfNeeded: id.high >> 24)
        let lower = Self.firstPosition(notBelow: prefix, in: UnsafePointer(prefixes), low: low, high: high)
        var end = lower
        while end < high, prefixes[end] == prefix { end += 1 }
        return lower..<end
    }

    /// The first position in `low..<high` whose value is `prefix` or more (`high` if none), in a `table`
    /// sorted over that range.
    ///
    /// Ids are hashes, so their bytes 1–4 spread evenly over a fan-out bucket: the search starts where
    /// `prefix` would sit if they were spread exactly evenly, then gallops to bracket the answer and halves
    /// the bracket. In a 10^6-entry ledger's table (3.6 M ids, 14 MB; ~14 000 a bucket) the answer lies some
    /// tens of entries from that guess, so the search reads about as many entries as halving the whole
    /// bucket did, but within a few hundred bytes — a few cache lines, where halving missed the cache at
    /// most of its ~14 reads. The order is all it relies on: an uneven table costs more reads, never another
    /// answer.
    static func firstPosition(notBelow prefix: UInt32, in table: UnsafePointer<UInt32>, low: Int, high: Int) -> Int {
        guard low < high else { return low }
        let guess = low + Int((UInt64(prefix) * UInt64(high - low)) >> 32)
        var lower: Int
        var upper: Int
        if table[guess] < prefix {
            // The answer is past `guess`: double the step until an entry not below `prefix`, or the end.
            lower = guess + 1
            var step = 1
            upper = lower
            while upper < high, table[upper] < prefix {
                lower = upper + 1
                upper = lower + step
                step <<= 1
            }
            upper = min(upper, high)
        } else {
            // The answer is `guess` or before it: double the step back until an entry below `prefix`.
            upper = guess
            var step = 1
            while upper - step >= low, table[upper - step] >= prefix {
                upper -= step
                step <<= 1
            }
            lower = max(low, upper - step)
        }
        while lower < upper {
            let middle = (lower + upper) / 2
            if table[middle] < prefix { lower = middle + 1 } else { upper = middle }
        }
        return lower
    }

    /// Bytes 1–4 of every id, read a mebibyte at a time; nil (and lookups as before) if the index cannot be
    /// read or its ids are not in order within each fan-out bucket (the searches would then miss ids the
    /// exact lookup finds).
    private func readPrefixes() -> UnsafeMutablePointer<UInt32>? {
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: max(objectCount, 1))
        let chunk = 52_428  // ids in about a mebibyte
        var first = 0
        while first < objectCount {
            let count = min(chunk, objectCount - first)
            guard let bytes = try? index.read(count: count * 20, at: PackIndex.headerSize + first * 20) else {
                table.deallocate()
                return nil
            }
            bytes.withUnsafeBytes { raw in
                for item in 0..<count {
                    table[first + item] = UInt32(
                        bigEndian: raw.loadUnaligned(fromByteOffset: item * 20 + 1, as: UInt32.self))
                }
            }
            first += count
        }
        for bucket in 0..<256 {
            let low = bucket == 0 ? 0 : fanout[bucket - 1]
            let high = min(fanout[bucket], objectCount)
            guard low < high else { continue }
            for position in (low + 1)..<high where table[position - 1] > table[position] {
                table.deallocate()
                return nil
            }
        }
        return table
    }

    /// Where `id` starts in the pack, or nil when the index does not list it.
    func offset(of id: PackedObjectID) throws(Unreadable) -> Int? {
        guard let (low, high) = bucket(of: id) else { return nil }
        if let found = prefixRange(of: id, low: low, high: high), found.isEmpty { return nil }
        // The last sample at or before `id`: its block of ids holds `id` if any does.
        var lower = 0
        var upper = samples.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if samples[middle] <= id { lower = middle + 1 } else { upper = middle }
        }
        guard lower > 0 else { return nil }
        let blockStart = max((lower - 1) * Self.sampleStride, low)
        let blockEnd = min(lower * Self.sampleStride, high)
        guard blockStart < blockEnd else { return nil }
        let count = (blockEnd - blockStart) * 20
        guard index.read(into: idBlock, count: count, at: PackIndex.headerSize + blockStart * 20) == count else {
            throw Unreadable(
                reason: "\(index.name): cannot read \(count) bytes at \(PackIndex.headerSize + blockStart * 20)")
        }
        let raw = UnsafeRawBufferPointer(start: idBlock, count: count)
        let found = (0..<(blockEnd - blockStart)).first { PackedObjectID(raw, at: $0 * 20) == id }
        guard let found else { return nil }
        return try offset(at: blockStart + found)
    }

    /// The offset the index gives object number `position` (a large offset read from its own table).
    private func offset(at position: Int) throws(Unreadable) -> Int {
        let value = try smallOffset(at: position)
        var offset = Int(value)
        if value & 0x8000_0000 != 0 {
            let slot = Int(value & 0x7FFF_FFFF)
            guard slot < largeOffsetCount else {
                throw Unreadable(
                    reason: "\(name).idx: object \(position) names large offset \(slot) of \(largeOffsetCount)")
            }
            let large = try index.read(count: 8, at: largeOffsetsStart + slot * 8)
            offset = Int(
                truncatingIfNeeded: large.withUnsafeBytes { UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) })
        }
        guard offset >= 12, offset < objectsEnd else {
            throw Unreadable(reason: "\(name).idx: object \(position) at offset \(offset), outside the pack")
        }
        return offset
    }

    /// The 4-byte offset table's entry for object number `position`: read alone, or, when the pack keeps its
    /// offsets, its block of ``sampleStride`` read (and kept) when its entry was not read before.
    private func smallOffset(at position: Int) throws(Unreadable) -> UInt32 {
        if offsetBlocks == nil {
            guard keepsOffsets, let zeroed = calloc(objectCount, 4) else {
                let small = try index.read(count: 4, at: offsetsStart + position * 4)
                return small.withUnsafeBytes { UInt32(bigEndian: $0.loadUnaligned(as: UInt32.self)) }
            }
            offsetBlocks = zeroed.bindMemory(to: UInt32.self, capacity: objectCount)
        }
        let offsets = offsetBlocks!
        if offsets[position] == 0 {
            let start = position / Self.sampleStride * Self.sampleStride
            let count = min(Self.sampleStride, objectCount - start)
            let bytes = try index.read(count: count * 4, at: offsetsStart + start * 4)
            bytes.withUnsafeBytes { raw in
                for item in 0..<count {
                    offsets[start + item] = UInt32(
                        bigEndian: raw.loadUnaligned(fromByteOffset: item * 4, as: UInt32.self))
                }
            }
        }
        return offsets[position]
    }

    // MARK: - Objects

    /// The header of the object at `offset` (``PackObjectHeader``), its zlib stream's start made a pack offset.
    private func header(at offset: Int) throws(Unreadable) -> PackObjectHeader {
        guard offset >= 12, offset < objectsEnd else {
            throw Unreadable(reason: "\(name).pack: an object at \(offset), outside the pack")
        }
        let bytes = try fill(at: offset, atLeast: min(40, objectsEnd - offset))
        do throws(PackObjectHeader.Malformed) {
            let header = try PackObjectHeader.parse(bytes, at: 0, offset: offset)
            return PackObjectHeader(
                type: header.type, size: header.size, base: header.base, dataStart: offset + header.dataStart)
        } catch {
            throw Unreadable(reason: "\(name).pack: \(error.reason)")
        }
    }

    /// The type and size of the object at `offset`, inflating nothing but a delta's first bytes (its result's
    /// size); a delta's type is its chain's base's.
    func typeAndSize(at offset: Int) throws(Unreadable) -> (type: ObjectType, size: Int) {
        let top = try header(at: offset)
        var current = top
        var chain = 0
        while true {
            switch current.base {
            case .none:
                guard chain > 0 else { return (current.type, top.size) }
                let prefix = try inflate(from: top.dataStart, size: top.size, prefixOnly: true)
                let sizes = prefix.withUnsafeBytes { bytes in
                    Result { () throws(PackDelta.Malformed) in try PackDelta.sizes(bytes) }
                }
                guard case .success(let sizes) = sizes else {
                    throw Unreadable(reason: "\(name).pack: the delta at \(offset) has a malformed header")
                }
                return (current.type, sizes.result)
            case .offset(let base): current = try header(at: base)
            case .id(let id): current = try header(at: try baseOffset(id, deltaAt: offset))
            }
            chain += 1
            guard chain < Self.maxChainObjects else { throw chainTooLong(at: offset) }
        }
    }

    /// The object at `offset`, a delta rebuilt on its base.
    func object(at offset: Int) throws(Unreadable) -> (type: ObjectType, bytes: [UInt8]) {
        var deltas: [(offset: Int, header: PackObjectHeader)] = []
        var current = offset
        var base: (type: ObjectType, bytes: [UInt8])
        chain: while true {
            if let cached = bases[current] {
                base = cached
                break
            }
            let header = try header(at: current)
            switch header.base {
            case .none:
                base = (header.type, try inflate(from: header.dataStart, size: header.size))
                break chain
            case .offset(let baseOffset):
                deltas.append((current, header))
                current = baseOffset
            case .id(let id):
                deltas.append((current, header))
                current = try baseOffset(id, deltaAt: current)
            }
            guard deltas.count < Self.maxChainObjects else { throw chainTooLong(at: offset) }
        }
        var budget = Self.maxBytesPerRead - base.bytes.count
        for (index, delta) in deltas.enumerated().reversed() {
            // Each base of the chain is kept for the deltas on it that follow (a chain's objects are read
            // one after the other: its bases again and again).
            remember(base, at: index + 1 < deltas.count ? deltas[index + 1].offset : current)
            let instructions = try inflate(from: delta.header.dataStart, size: delta.header.size)
            base = (base.type, try applied(instructions, to: base.bytes, at: delta.offset))
            budget -= instructions.count + base.bytes.count
            guard budget >= 0 else {
                throw Unreadable(
                    reason:
                        "\(name).pack: the delta chain at \(offset) rebuilds more than \(Self.maxBytesPerRead) bytes")
            }
        }
        return base
    }

    private func applied(_ delta: [UInt8], to base: [UInt8], at offset: Int) throws(Unreadable) -> [UInt8] {
        let result = delta.withUnsafeBytes { deltaBytes in
            base.withUnsafeBytes { baseBytes in
                Result { () throws(PackDelta.Malformed) -> [UInt8] in
                    let sizes = try PackDelta.sizes(deltaBytes)
                    guard sizes.result <= PackFile.maxObjectBytes else {
                        throw PackDelta.Malformed(
                            reason: "a delta declares \(sizes.result) bytes, over the \(PackFile.maxObjectBytes) read")
                    }
                    // Not zeroed first: `apply` fills every byte or fails (and a hostile header's size then
                    // costs no memory it does not write).
                    var failure: PackDelta.Malformed?
                    let result = [UInt8](unsafeUninitializedCapacity: sizes.result) { buffer, count in
                        do throws(PackDelta.Malformed) {
                            try PackDelta.apply(deltaBytes, to: baseBytes, into: UnsafeMutableRawBufferPointer(buffer))
                            count = sizes.result
                        } catch {
                            failure = error
                            count = 0
                        }
                    }
                    if let failure { throw failure }
                    return result
                }
            }
        }
        switch result {
        case .success(let bytes): return bytes
        case .failure(let error): throw Unreadable(reason: "\(name).pack: the delta at \(offset): \(error.reason)")
        }
    }

    private func baseOffset(_ id: PackedObjectID, deltaAt offset: Int) throws(Unreadable) -> Int {
        guard let base = try self.offset(of: id) else {
            throw Unreadable(reason: "\(name).pack: the delta at \(offset) names a base this pack does not hold")
        }
        return base
    }

    private func chainTooLong(at offset: Int) -> Unreadable {
        Unreadable(reason: "\(name).pack: the delta chain at \(offset) holds more than \(Self.maxChainObjects) objects")
    }

    /// Keeps a rebuilt base, forgetting the oldest kept ones past ``baseCacheBytes``.
    private func remember(_ base: (type: ObjectType, bytes: [UInt8]), at offset: Int) {
        guard bases[offset] == nil, base.bytes.count <= Self.baseCacheBytes / 16 else { return }
        bases[offset] = base
        baseOrder.append(offset)
        baseBytes += Self.cachedBytes(base.bytes)
        while baseBytes > Self.baseCacheBytes, baseOrderStart < baseOrder.count {
            if let dropped = bases.removeValue(forKey: baseOrder[baseOrderStart]) {
                baseBytes -= Self.cachedBytes(dropped.bytes)
            }
            baseOrderStart += 1
        }
        if baseOrderStart > 4096 {
            baseOrder.removeFirst(baseOrderStart)
            baseOrderStart = 0
        }
    }

    /// What a kept base costs: its buffer as allocated (an inflated object has ``inflateSlack`` bytes more
    /// than it holds) and an entry's overhead, so that many empty or tiny bases count too.
    private static func cachedBytes(_ bytes: [UInt8]) -> Int { bytes.capacity + 64 }

    // MARK: - Reading

    /// The zlib stream at `start` inflated: exactly `size` bytes, or (`prefixOnly`) its first 32 at most.
    private func inflate(from start: Int, size: Int, prefixOnly: Bool = false) throws(Unreadable) -> [UInt8] {
        guard size <= Self.maxObjectBytes else {
            throw Unreadable(
                reason:
                    "\(name).pack: an object at \(start) declares \(size) bytes, over the \(Self.maxObjectBytes) read")
        }
        // Room past the declared size: zlib's fast loop runs only while 258 bytes of output are free, so
        // with none, an object's last 258 bytes went byte by byte; and an object longer than its header
        // says is caught by the bytes it writes there.
        let capacity = prefixOnly ? min(size, 32) : size + Self.inflateSlack
        guard capacity > 0 else { return [] }
        let stream = try freshStream()
        var failure: Unreadable?
        let output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            count = 0
            stream.pointee.next_out = buffer.baseAddress
            stream.pointee.avail_out = UInt32(capacity)
            var position = start
            while failure == nil {
                guard position < objectsEnd else {
                    failure = Unreadable(reason: "\(name).pack: the object at \(start) is cut short")
                    break
                }
                do throws(Unreadable) {
                    let available = try fill(at: position, atLeast: 1)
                    stream.pointee.next_in = UnsafeMutablePointer(
                        mutating: available.baseAddress!.assumingMemoryBound(to: UInt8.self))
                    stream.pointee.avail_in = UInt32(available.count)
                } catch {
                    failure = error
                    break
                }
                let before = (input: stream.pointee.avail_in, output: stream.pointee.avail_out)
                let status = CZlib.inflate(stream, Z_NO_FLUSH)
                position += Int(before.input - stream.pointee.avail_in)
                let produced = capacity - Int(stream.pointee.avail_out)
                if status == Z_STREAM_END {
                    count = produced
                    if produced != size {
                        failure = Unreadable(
                            reason: "\(name).pack: the object at \(start) inflates to \(produced) bytes, not \(size)")
                    }
                    break
                }
                if status == Z_OK || status == Z_BUF_ERROR, stream.pointee.avail_out == 0, prefixOnly {
                    count = produced
                    break
                }
                guard status == Z_OK || status == Z_BUF_ERROR, stream.pointee.avail_out > 0,
                    before != (stream.pointee.avail_in, stream.pointee.avail_out)
                else {
                    failure = Unreadable(
                        reason: "\(name).pack: the object at \(start) does not inflate to its \(size) bytes")
                    break
                }
            }
        }
        if let failure { throw failure }
        return output
    }

    /// The pack's bytes from `offset` to the end of the window holding them — at least `minimum` of them,
    /// never past the objects' end — read into the window used longest ago when none holds them.
    private func fill(at offset: Int, atLeast minimum: Int) throws(Unreadable) -> UnsafeRawBufferPointer {
        guard offset < objectsEnd else { throw Unreadable(reason: "\(name).pack: a read past the objects' end") }
        reads += 1
        var oldest = 0
        // By index: iterating `windows` itself would hold its buffer, and the mark below would copy it.
        for number in windows.indices {
            let window = windows[number]
            if offset >= window.start, offset + minimum <= window.start + window.count {
                windows[number].used = reads
                return UnsafeRawBufferPointer(
                    start: windowBytes + number * Self.windowSize + (offset - window.start),
                    count: window.start + window.count - offset)
            }
            if window.used < windows[oldest].used { oldest = number }
        }
        let count = min(Self.windowSize, objectsEnd - offset)
        let buffer = windowBytes + oldest * Self.windowSize
        guard pack.read(into: buffer, count: count, at: offset) == count else {
            windows[oldest] = (0, 0, 0)
            throw Unreadable(reason: "\(name).pack: cannot read \(count) bytes at \(offset)")
        }
        windows[oldest] = (offset, count, reads)
        return UnsafeRawBufferPointer(start: buffer, count: count)
    }
}

/// A file opened read-only for `pread`, closed when released.
final class ReadOnlyFile {
    let descriptor: Int32
    let size: Int
    /// The file's name in errors (its last path component).
    let name: String

    init?(_ path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            return nil
        }
        size = Int(info.st_size)
        name = String(path.split(separator: "/").last ?? Substring(path))
    }

    deinit { close(descriptor) }

    /// `count` bytes at `offset`; an error naming the file when it holds fewer.
    func read(count: Int, at offset: Int) throws(PackFile.Unreadable) -> [UInt8] {
        guard count > 0 else { return [] }
        var done = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            done = read(into: UnsafeMutableRawPointer(buffer.baseAddress!), count: count, at: offset)
            initialized = done
        }
        guard done == count else {
            throw PackFile.Unreadable(reason: "\(name): cannot read \(count) bytes at \(offset)")
        }
        return bytes
    }

    /// Reads `count` bytes at `offset`; how many were read (fewer at the file's end or on an error).
    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) -> Int {
        readFully(descriptor, into: buffer, count: count, at: offset) ?? 0
    }
}
