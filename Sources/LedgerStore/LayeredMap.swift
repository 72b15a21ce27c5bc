internal import LedgerFormat

#if canImport(Glibc)
    import Glibc
#endif

/// How a ``LayeredMap``'s keys and values become a ``SortedTable``'s bytes.
public protocol TableCodec {
    associatedtype Key: Hashable & Sendable
    associatedtype Value: Sendable
    /// The table kind named in the file's header.
    static var kind: String { get }
    static func bytes(of key: Key) -> [UInt8]
    static func key(from bytes: [UInt8]) -> Key?
    static func bytes(of value: Value) -> [UInt8]
    /// The value stored under `key`; nil when the bytes do not read.
    static func value(from bytes: [UInt8], key: Key) -> Value?
    /// Whether `left`'s bytes come before `right`'s in a table (`SortedTable.compare(_:_:)`):
    /// how a save orders the keys without encoding each of them at every comparison.
    static func precedes(_ left: Key, _ right: Key) -> Bool
}

extension TableCodec {
    /// Compares the keys' bytes (a codec whose keys order the same way without encoding them says so).
    public static func precedes(_ left: Key, _ right: Key) -> Bool {
        SortedTable.compare(bytes(of: left), bytes(of: right)) < 0
    }
}

/// A map that grows with the ledger, kept so that continuing from a checkpoint costs what the new commits
/// touch, not what the ledger holds: a base — a ``SortedTable`` file mapped into memory with the delta saved
/// over it, or a dictionary this process built — shared by every copy, and the changes made since, in a
/// dictionary of their own. A copy copies only the changes; a map that alone holds its in-memory base
/// changes the base itself.
///
/// On disk (``save(to:tip:note:mode:durable:)``): the full table at `path`, and `path.delta` holding the changes
/// since it (a table whose header names the full table's tip as its base). Both are read in place: a key is
/// looked up in the changes, then the delta, then the full table. A save writes only the delta — the loaded
/// delta's entries copied as they are, merged with the changes — while it holds a small part of the whole,
/// else a new full table; loading checks that the files fit together and name the expected tip
/// (``load(from:tip:)``).
public struct LayeredMap<Codec: TableCodec>: Sendable {
    public typealias Key = Codec.Key
    public typealias Value = Codec.Value

    /// A base this process built. Changed in place only while a single map holds it, else immutable.
    final class Memory: @unchecked Sendable {
        var entries: [Key: Value]
        init(_ entries: [Key: Value]) { self.entries = entries }
    }

    /// The base: in memory (`memory`), a full table (`file`) and the delta loaded over it (`delta`), or a
    /// table this map spilled to (`spilled`, removed once opened: a save then writes a full table, never a
    /// delta over it); exactly one of `memory`, `file` and `spilled` is set.
    private var memory: Memory?
    private var file: SortedTable?
    private var delta: SortedTable?
    private var spilled: SpilledTable?
    private var changes: [Key: Value]
    public private(set) var count: Int
    /// Where entries go past a limit held in memory (``Spill``); nil: all stay in memory.
    public var spill: Spill?

    /// A map that holds at most `limit` entries in memory: past it, every entry is written to a table in
    /// `folder` (streamed, the saved tables' entries copied as they are), the file is opened and removed
    /// at once, and the map reads it with `pread` from then on (`SpilledTable`), its changes in memory
    /// until the next spill. A filter of the table's keys, built as it is written (`KeyFilter`), spares the
    /// read of most keys it does not hold.
    public struct Spill: Sendable {
        public let folder: String
        public let limit: Int

        public init(folder: String, limit: Int) {
            self.folder = folder
            self.limit = limit
        }
    }

    /// In memory, the changes are folded into a new base once they outnumber half the map (and 4 096):
    /// a fold copies the whole map, so the map doubles between folds and folding costs O(1) a change.
    static var foldMinimum: Int { 4096 }
    /// On disk, a delta is written while it holds at most a 32nd of the map (or 4 096 entries): every save
    /// copies it, so it stays small, and the full table is rewritten after that many changes.
    static var deltaMinimum: Int { 4096 }
    static var deltaFraction: Int { 32 }

    public init() {
        self.init([:])
    }

    public init(_ entries: [Key: Value]) {
        memory = Memory(entries)
        changes = [:]
        count = entries.count
    }

    private init(file: SortedTable, delta: SortedTable?) {
        self.file = file
        self.delta = delta
        changes = [:]
        count = delta?.header.entries ?? file.header.count
    }

    public subscript(key: Key) -> Value? {
        get {
            if let changed = changes[key] { return changed }
            return baseValue(key)
        }
    }

    /// Sets `key`'s value (a map of the ledger's history only grows: there is no removal). Into the base
    /// itself while this map is its only holder (a verifier's one state, the writer's kept state): then the
    /// map is one dictionary, as if not layered; else into the changes.
    public mutating func set(_ key: Key, _ value: Value) {
        if changes.isEmpty, memory != nil, isKnownUniquelyReferenced(&memory) {
            if memory!.entries.updateValue(value, forKey: key) == nil { count += 1 }
        } else {
            if changes.updateValue(value, forKey: key) == nil, !baseContains(key) { count += 1 }
            if spill == nil, changes.count > max(Self.foldMinimum, count / 2) { fold() }
        }
        if let spill, heldInMemory >= spill.limit { spillEntries(spill) }
    }

    /// Sets `key`'s value unless the map holds one; whether it set it. One lookup of the base where reading
    /// the key and then setting it makes two (a spilled base is read from its file).
    public mutating func setIfAbsent(_ key: Key, _ value: Value) -> Bool {
        if changes[key] != nil { return false }
        if changes.isEmpty, memory != nil, isKnownUniquelyReferenced(&memory) {
            guard memory!.entries[key] == nil else { return false }
            memory!.entries[key] = value
        } else {
            guard !baseContains(key) else { return false }
            changes[key] = value
            if spill == nil, changes.count > max(Self.foldMinimum, (count + 1) / 2) { fold() }
        }
        count += 1
        if let spill, heldInMemory >= spill.limit { spillEntries(spill) }
        return true
    }

    /// Writes every entry to a table in `spill.folder` and reads it from there: the memory they held is
    /// released. A table that cannot be written or opened leaves the map as it was, and spilling off.
    private mutating func spillEntries(_ spill: Spill) {
        let started = PhaseClock.enabled ? (PhaseClock.now(), PhaseClock.threadCPU()) : (0, 0)
        let path = spill.folder + "/onym-ledger-spill-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).table"
        defer { unlink(path) }
        var filter = KeyFilter(expecting: count)
        do {
            try writeWhole(to: path, tip: Self.spillTip, note: 0, mode: 0o600, durable: false) { filter.insert($0) }
        } catch {
            self.spill = nil
            return
        }
        guard let table = SpilledTable(path: path, kind: Codec.kind, filter: filter), table.header.count == count
        else {
            self.spill = nil
            return
        }
        memory = nil
        file = nil
        delta = nil
        spilled = table
        changes = [:]
        if PhaseClock.enabled {
            let (wall, cpu) = (PhaseClock.now() - started.0, PhaseClock.threadCPU() - started.1)
            PhaseClock.note(
                "spill \(Codec.kind): \(count) entries, \(PhaseClock.milliseconds(wall)) ms (thread CPU \(PhaseClock.milliseconds(cpu)) ms)"
            )
        }
    }

    /// The tip a spilled table's header names: none (it is never loaded by a tip).
    private static var spillTip: ObjectID { ObjectID(rawBytes: [UInt8](repeating: 0, count: 20))! }

    /// Gives back the memory pages the mapped tables' lookups have touched (they are read again from the
    /// file when needed).
    public func releasePages() {
        file?.releasePages()
        delta?.releasePages()
    }

    private func baseValue(_ key: Key) -> Value? {
        if let memory { return memory.entries[key] }
        let keyBytes = Codec.bytes(of: key)
        if let spilled { return spilled.value(for: keyBytes).map { Self.decoded($0, key: key) } }
        if let delta, let bytes = delta.value(for: keyBytes) { return Self.decoded(bytes, key: key) }
        if let file, let bytes = file.value(for: keyBytes) { return Self.decoded(bytes, key: key) }
        return nil
    }

    /// Whether the base holds `key` (its value found, not decoded).
    private func baseContains(_ key: Key) -> Bool {
        if let memory { return memory.entries[key] != nil }
        let keyBytes = Codec.bytes(of: key)
        if let spilled { return spilled.contains(keyBytes) }
        return delta?.contains(keyBytes) == true || file?.contains(keyBytes) == true
    }

    /// A value read from a table whose checksum passed when it was opened (or by the run that recorded its
    /// identity), or that this run wrote: only a codec that disagrees with its own writer fails here, and
    /// that stops the program rather than continuing from a guess.
    private static func decoded(_ bytes: [UInt8], key: Key) -> Value {
        guard let value = Codec.value(from: bytes, key: key) else {
            preconditionFailure("local state table \(Codec.kind) holds a value its codec does not read")
        }
        return value
    }

    /// How many entries the map holds in memory (its in-memory base and its changes).
    var heldInMemory: Int { (memory?.entries.count ?? 0) + changes.count }

    /// Whether the base is a file that was checked whole when it was opened (nil for a base in memory).
    var baseCheckedWhole: Bool? { file?.checkedWhole }

    /// Every entry, the changes over the base, in no particular order.
    public func forEach(_ body: (Key, Value) -> Void) {
        if let memory {
            for (key, value) in memory.entries where changes[key] == nil { body(key, value) }
        } else {
            var saved = savedEntries
            while let (keyBytes, valueBytes) = saved.next() {
                let key = Self.decodedKey(keyBytes)
                if changes[key] == nil { body(key, Self.decoded(valueBytes, key: key)) }
            }
        }
        for (key, value) in changes { body(key, value) }
    }

    /// Every key, in no particular order, without decoding a value.
    public func keys() -> [Key] {
        var all: [Key] = []
        all.reserveCapacity(count)
        if let memory {
            for key in memory.entries.keys where changes[key] == nil { all.append(key) }
        } else {
            var saved = savedEntries
            while let (keyBytes, _) = saved.next() {
                let key = Self.decodedKey(keyBytes)
                if changes[key] == nil { all.append(key) }
            }
        }
        all.append(contentsOf: changes.keys)
        return all
    }

    private static func decodedKey(_ bytes: [UInt8]) -> Key {
        guard let key = Codec.key(from: bytes) else {
            preconditionFailure("local state table \(Codec.kind) holds a key its codec does not read")
        }
        return key
    }

    /// The entries of the base's tables (none for a base in memory).
    private var savedEntries: SavedEntries {
        if let spilled { return SavedEntries(spilled: spilled) }
        return SavedEntries(full: file, delta: delta)
    }

    /// Every entry as a dictionary (for the few readers that want the whole map: reports, reconcile).
    public func dictionary() -> [Key: Value] {
        var all: [Key: Value] = [:]
        all.reserveCapacity(count)
        forEach { all[$0] = $1 }
        return all
    }

    /// Makes a new in-memory base of everything (the changes grew to a good part of the whole): merged
    /// into the base in place when no other copy of the map shares it, else a new base beside the shared one.
    private mutating func fold() {
        if memory != nil, isKnownUniquelyReferenced(&memory) {
            memory!.entries.merge(changes) { $1 }
        } else {
            memory = Memory(dictionary())
            file = nil
            delta = nil
            spilled = nil
        }
        changes = [:]
    }

    /// The saved tables' entries in key order, as bytes: the full table's merged with the delta's, a key in
    /// both taken from the delta (the newer value) — or a spilled table's. The pages read are given back as
    /// the walk goes (`releasedEvery`): a walk reads the whole file, which would otherwise stay resident.
    private struct SavedEntries {
        let full: SortedTable?
        let delta: SortedTable?
        private var spilled: SpilledTable.Reader?
        private var fullIndex = 0
        private var deltaIndex = 0
        private var fullEntry: (key: [UInt8], value: [UInt8])?
        private var deltaEntry: (key: [UInt8], value: [UInt8])?
        private var walked = 0

        /// How many entries a walk reads between givings back of the pages.
        static var releasedEvery: Int { 1 << 16 }

        init(full: SortedTable?, delta: SortedTable?) {
            self.full = full
            self.delta = delta
        }

        init(spilled: SpilledTable) {
            full = nil
            delta = nil
            self.spilled = SpilledTable.Reader(spilled)
        }

        mutating func next() -> (key: [UInt8], value: [UInt8])? {
            walked += 1
            if var reader = spilled {
                defer { spilled = reader }
                return walked <= reader.table.header.count ? reader.entry(at: walked - 1) : nil
            }
            if walked % Self.releasedEvery == 0 {
                full?.releasePages()
                delta?.releasePages()
            }
            if fullEntry == nil, let full, fullIndex < full.header.count {
                fullEntry = full.entryBytes(at: fullIndex)
                fullIndex += 1
            }
            if deltaEntry == nil, let delta, deltaIndex < delta.header.count {
                deltaEntry = delta.entryBytes(at: deltaIndex)
                deltaIndex += 1
            }
            switch (fullEntry, deltaEntry) {
            case (nil, nil):
                return nil
            case (let entry?, nil):
                fullEntry = nil
                return entry
            case (let older?, let newer?) where SortedTable.compare(older.key, newer.key) < 0:
                fullEntry = nil
                return older
            case (let older, let newer?):
                if let older, SortedTable.compare(older.key, newer.key) == 0 { fullEntry = nil }
                deltaEntry = nil
                return newer
            }
        }
    }

    /// `saved` merged with `held` (keys in the table's order, their values this map's), a key in both taken
    /// from `held`: the entries of a table written as a stream.
    private struct OrderedEntries {
        let map: LayeredMap
        let held: [Key]
        private var saved: SavedEntries
        private var savedEntry: (key: [UInt8], value: [UInt8])?
        private var heldIndex = 0
        private var heldKey: [UInt8]?
        private(set) var isFinished: Bool

        init(map: LayeredMap, saved: SavedEntries, held: [Key]) {
            self.map = map
            self.saved = saved
            self.held = held
            savedEntry = self.saved.next()
            isFinished = savedEntry == nil && held.isEmpty
        }

        mutating func next() -> (key: [UInt8], value: [UInt8]) {
            if heldKey == nil, heldIndex < held.count { heldKey = Codec.bytes(of: held[heldIndex]) }
            if let entry = savedEntry {
                let order = heldKey.map { SortedTable.compare(entry.key, $0) } ?? -1
                if order <= 0 {
                    savedEntry = saved.next()
                    if order < 0 { return finishing(entry) }
                }
            }
            precondition(heldKey != nil, "a map's count disagrees with its entries")
            let key = heldKey!
            let value = Codec.bytes(of: map[held[heldIndex]]!)
            heldIndex += 1
            heldKey = nil
            return finishing((key, value))
        }

        private mutating func finishing(_ entry: (key: [UInt8], value: [UInt8])) -> (key: [UInt8], value: [UInt8]) {
            isFinished = savedEntry == nil && heldIndex == held.count
            return entry
        }
    }

    // MARK: - Files

    public static func deltaPath(_ path: String) -> String { path + ".delta" }

    /// The map the files at `path` hold for `tip`, with the note saved beside it; nil when they are missing,
    /// damaged, of another kind, or do not fit together and name `tip`. Neither file is decoded: the delta
    /// (small, always checked whole) may record the full table as checked, and its header holds the map's
    /// count.
    public static func load(from path: String, tip: ObjectID) -> (map: LayeredMap, note: UInt64)? {
        let delta = SortedTable.open(deltaPath(path), kind: Codec.kind)
        guard let full = SortedTable.open(path, kind: Codec.kind, trusted: delta?.header.baseIdentity),
            full.header.base == nil
        else { return nil }
        guard let delta, delta.header.tip == tip, delta.header.base == full.header.tip else {
            return full.header.tip == tip ? (LayeredMap(file: full, delta: nil), full.header.note) : nil
        }
        return (LayeredMap(file: full, delta: delta), delta.header.note)
    }

    /// Saves the map as of `tip`: the changes since the full table this map was loaded from, as a delta,
    /// while they are few (never rewriting the full table, which another reader may have mapped); else a new
    /// full table, and an empty delta recording its identity. `note` is kept in the header. The delta also records the full table's file
    /// identity once a run checked the table whole (an empty delta when nothing else changed).
    public func save(to path: String, tip: ObjectID, note: UInt64, mode: mode_t = 0o600, durable: Bool)
        throws(DurableFile.WriteError)
    {
        let deltaCount = delta?.header.count ?? 0
        if let full = file,
            deltaCount + changes.count <= max(Self.deltaMinimum, count / Self.deltaFraction)
        {
            let saved = delta ?? full
            // Unchanged, and the full table's identity already recorded (or not recordable yet): nothing to write.
            if saved.header.tip == tip && changes.isEmpty && saved.header.note == note
                && (full.identity == nil || delta?.header.baseIdentity == full.identity || !full.checkedWhole)
            {
                return
            }
            // The delta records the full table's identity (checked whole by this run, or by the run that
            // recorded it), so the next run reads only the full table's header. Its entries: the loaded
            // delta's as they are, merged with the changes.
            let added = delta.map { delta in changes.keys.count { !delta.contains(Codec.bytes(of: $0)) } }
            let header = SortedTable.Header(
                kind: Codec.kind, tip: tip, base: full.header.tip, count: deltaCount + (added ?? changes.count),
                note: note, baseIdentity: full.identity, entries: count)
            try write(
                SavedEntries(full: nil, delta: delta), held: changes.keys.sorted(by: Codec.precedes),
                header: header, to: Self.deltaPath(path), mode: mode, durable: durable)
            return
        }
        try writeWhole(to: path, tip: tip, note: note, mode: mode, durable: durable)
        // What this run just wrote needs no check by the next: an empty delta records the new table's
        // identity (a later version is written to a new file and renamed over it: another inode).
        guard let identity = FileIdentity.of(path: path) else {
            unlink(Self.deltaPath(path))
            return
        }
        let empty = SortedTable.Header(
            kind: Codec.kind, tip: tip, base: tip, count: 0, note: note, baseIdentity: identity, entries: count)
        try write(
            SavedEntries(full: nil, delta: nil), held: [], header: empty, to: Self.deltaPath(path), mode: mode,
            durable: durable)
    }

    /// Writes every entry as a full table, in the table's order, streamed: the saved tables' as they are,
    /// merged with those in memory (the keys held in memory the one array it makes). `eachKey` is shown every
    /// key written.
    private func writeWhole(
        to path: String, tip: ObjectID, note: UInt64, mode: mode_t, durable: Bool,
        eachKey: ([UInt8]) -> Void = { _ in }
    ) throws(DurableFile.WriteError) {
        var held = memory.map { memory in memory.entries.keys.filter { changes[$0] == nil } } ?? []
        held.append(contentsOf: changes.keys)
        held.sort(by: Codec.precedes)
        let header = SortedTable.Header(kind: Codec.kind, tip: tip, base: nil, count: count, note: note)
        try write(savedEntries, held: held, header: header, to: path, mode: mode, durable: durable, eachKey: eachKey)
    }

    /// Writes the table `header` describes: `saved` merged with `held` (keys in the table's order, their
    /// values this map's).
    private func write(
        _ saved: SavedEntries, held: [Key], header: SortedTable.Header, to path: String, mode: mode_t, durable: Bool,
        eachKey: ([UInt8]) -> Void = { _ in }
    ) throws(DurableFile.WriteError) {
        var entries = OrderedEntries(map: self, saved: saved, held: held)
        try SortedTable.write(
            header: header, to: path, mode: mode, durable: durable,
            entry: { _ in
                let entry = entries.next()
                eachKey(entry.key)
                return entry
            },
            isComplete: { entries.isFinished })
    }
}

extension LayeredMap: Equatable where Codec.Value: Equatable {
    /// Two maps are equal when they hold the same entries, however each is layered.
    public static func == (left: LayeredMap, right: LayeredMap) -> Bool {
        left.count == right.count && left.dictionary() == right.dictionary()
    }
}
