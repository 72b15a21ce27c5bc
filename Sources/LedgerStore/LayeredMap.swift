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
/// touch, not what the ledger holds: a base — a ``SortedTable`` file mapped into memory, or a dictionary
/// this process built — shared by every copy, and the changes made since, in a dictionary of their own. A
/// copy copies only the changes; a map that alone holds its in-memory base changes the base itself.
///
/// On disk (``save(to:tip:note:mode:durable:)``): the full table at `path`, and `path.delta` holding the changes
/// since it (a table whose header names the full table's tip as its base). A save writes only the delta
/// while the changes are a small part of the whole, else a new full table; loading checks that the files
/// fit together and name the expected tip (``load(from:tip:)``).
public struct LayeredMap<Codec: TableCodec>: Sendable {
    public typealias Key = Codec.Key
    public typealias Value = Codec.Value

    /// A base this process built. Changed in place only while a single map holds it, else immutable.
    final class Memory: @unchecked Sendable {
        var entries: [Key: Value]
        init(_ entries: [Key: Value]) { self.entries = entries }
    }

    /// The base: in memory (`memory`), or a file (`file`); exactly one is set.
    private var memory: Memory?
    private var file: SortedTable?
    private var changes: [Key: Value]
    public private(set) var count: Int

    /// In memory, the changes are folded into a new base once they outnumber half the map (and 4 096):
    /// a fold copies the whole map, so the map doubles between folds and folding costs O(1) a change.
    static var foldMinimum: Int { 4096 }
    /// On disk, a delta is written while it holds at most a 32nd of the map (or 4 096 entries): a run that
    /// continues reads it whole, so it stays small, and the full table is rewritten after that many changes.
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

    private init(file: SortedTable) {
        self.file = file
        changes = [:]
        count = file.header.count
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
            return
        }
        if changes.updateValue(value, forKey: key) == nil, !baseContains(key) { count += 1 }
        if changes.count > max(Self.foldMinimum, count / 2) { fold() }
    }

    private func baseValue(_ key: Key) -> Value? {
        if let memory { return memory.entries[key] }
        guard let file, let bytes = file.value(for: Codec.bytes(of: key)) else { return nil }
        return Self.decoded(bytes, key: key, in: file)
    }

    /// Whether the base holds `key` (its value found, not decoded).
    private func baseContains(_ key: Key) -> Bool {
        if let memory { return memory.entries[key] != nil }
        return file?.value(for: Codec.bytes(of: key)) != nil
    }

    /// A value read from `file`, whose checksum passed when it was opened (or by the run that recorded its
    /// identity): only a codec that disagrees with its own writer fails here, and that stops the program
    /// rather than continuing from a guess.
    private static func decoded(_ bytes: [UInt8], key: Key, in file: SortedTable) -> Value {
        guard let value = Codec.value(from: bytes, key: key) else {
            preconditionFailure("local state table \(file.header.kind) holds a value its codec does not read")
        }
        return value
    }

    /// Whether the base is a file that was checked whole when it was opened (nil for a base in memory).
    var baseCheckedWhole: Bool? { file?.checkedWhole }

    /// Every entry, the changes over the base, in no particular order.
    public func forEach(_ body: (Key, Value) -> Void) {
        if let memory {
            for (key, value) in memory.entries where changes[key] == nil { body(key, value) }
        } else if let file {
            file.forEach { keyBytes, valueBytes in
                let key = Self.decodedKey(keyBytes, in: file)
                if changes[key] == nil { body(key, Self.decoded(valueBytes, key: key, in: file)) }
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
        } else if let file {
            file.forEach { keyBytes, _ in
                let key = Self.decodedKey(keyBytes, in: file)
                if changes[key] == nil { all.append(key) }
            }
        }
        all.append(contentsOf: changes.keys)
        return all
    }

    private static func decodedKey(_ bytes: [UInt8], in file: SortedTable) -> Key {
        guard let key = Codec.key(from: bytes) else {
            preconditionFailure("local state table \(file.header.kind) holds a key its codec does not read")
        }
        return key
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
        }
        changes = [:]
    }

    /// Every entry in the table's order, as bytes, for a full table: the base table's entries as they are
    /// (but those the changes replace), merged with the entries held in memory, each encoded as it is reached.
    private func orderedEntries() -> OrderedEntries {
        var held = memory.map { memory in memory.entries.keys.filter { changes[$0] == nil } } ?? []
        held.append(contentsOf: changes.keys)
        held.sort(by: Codec.precedes)
        return OrderedEntries(map: self, held: held)
    }

    /// The merge ``orderedEntries()`` walks: a loaded table's entries and the sorted keys held in
    /// memory, a key in both taken from memory (the newer value).
    private struct OrderedEntries {
        let map: LayeredMap
        let held: [Key]
        private var tableIndex = 0
        private var tableEntry: (key: [UInt8], value: [UInt8])?
        private var heldIndex = 0
        private var heldKey: [UInt8]?

        init(map: LayeredMap, held: [Key]) {
            self.map = map
            self.held = held
        }

        var isFinished: Bool { tableIndex == (map.file?.header.count ?? 0) && heldIndex == held.count }

        mutating func next() -> (key: [UInt8], value: [UInt8]) {
            if tableEntry == nil, let table = map.file, tableIndex < table.header.count {
                tableEntry = table.entryBytes(at: tableIndex)
            }
            if heldKey == nil, heldIndex < held.count { heldKey = Codec.bytes(of: held[heldIndex]) }
            if let entry = tableEntry {
                let order = heldKey.map { SortedTable.compare(entry.key, $0) } ?? -1
                if order <= 0 {
                    tableIndex += 1
                    tableEntry = nil
                    if order < 0 { return entry }
                }
            }
            precondition(heldKey != nil, "a map's count disagrees with its entries")
            let key = heldKey!
            let value = Codec.bytes(of: map[held[heldIndex]]!)
            heldIndex += 1
            heldKey = nil
            return (key, value)
        }
    }

    // MARK: - Files

    public static func deltaPath(_ path: String) -> String { path + ".delta" }

    /// The map the files at `path` hold for `tip`, with the note saved beside it; nil when they are missing,
    /// damaged, of another kind, or do not fit together and name `tip`.
    public static func load(from path: String, tip: ObjectID) -> (map: LayeredMap, note: UInt64)? {
        // The delta first (small, always checked whole): it may record the full table as checked.
        let delta = SortedTable.open(deltaPath(path), kind: Codec.kind)
        guard let full = SortedTable.open(path, kind: Codec.kind, trusted: delta?.header.baseIdentity),
            full.header.base == nil
        else { return nil }
        var map = LayeredMap(file: full)
        guard let delta, delta.header.tip == tip, delta.header.base == full.header.tip else {
            return full.header.tip == tip ? (map, full.header.note) : nil
        }
        var valid = true
        delta.forEach { keyBytes, valueBytes in
            guard let key = Codec.key(from: keyBytes), let value = Codec.value(from: valueBytes, key: key) else {
                valid = false
                return
            }
            if map.changes.updateValue(value, forKey: key) == nil, !map.baseContains(key) { map.count += 1 }
        }
        return valid ? (map, delta.header.note) : nil
    }

    /// Saves the map as of `tip`: the changes since the full table this map was loaded from, as a delta,
    /// while they are few (never rewriting the full table, which another reader may have mapped); else a new
    /// full table and no delta. `note` is kept in the header. The delta also records the full table's file
    /// identity once a run checked the table whole (an empty delta when nothing else changed).
    public func save(to path: String, tip: ObjectID, note: UInt64, mode: mode_t = 0o600, durable: Bool)
        throws(DurableFile.WriteError)
    {
        if let full = file, changes.count <= max(Self.deltaMinimum, count / Self.deltaFraction) {
            // Unchanged and already recorded as checked (or not recordable yet): nothing to write.
            if full.header.tip == tip && changes.isEmpty && full.header.note == note
                && (!full.checkedWhole || full.identity == nil)
            {
                return
            }
            // The delta records the full table's identity (checked whole by this run, or by the run that
            // recorded it), so the next run reads only the full table's header.
            let header = SortedTable.Header(
                kind: Codec.kind, tip: tip, base: full.header.tip, count: changes.count, note: note,
                baseIdentity: full.identity)
            let changed = changes.keys.sorted(by: Codec.precedes)
            try Self.write(changed, header: header, to: Self.deltaPath(path), mode: mode, durable: durable) {
                changes[$0]!
            }
            return
        }
        // Every entry in the table's order, streamed to the file: a base table's as they are, merged with
        // those in memory (the keys held in memory the one array the save makes).
        var entries = orderedEntries()
        let header = SortedTable.Header(kind: Codec.kind, tip: tip, base: nil, count: count, note: note)
        try SortedTable.write(header: header, to: path, mode: mode, durable: durable) { _ in entries.next() }
        precondition(entries.isFinished, "a map's count disagrees with its entries")
        // What this run just wrote needs no check by the next: an empty delta records the new table's
        // identity (a later version is written to a new file and renamed over it: another inode).
        guard let identity = FileIdentity.of(path: path) else {
            unlink(Self.deltaPath(path))
            return
        }
        let empty = SortedTable.Header(
            kind: Codec.kind, tip: tip, base: tip, count: 0, note: note, baseIdentity: identity)
        try Self.write([], header: empty, to: Self.deltaPath(path), mode: mode, durable: durable) { self[$0]! }
    }

    /// Writes the table of `sortedKeys` (in ``TableCodec/precedes(_:_:)`` order), each with `value(key)`.
    private static func write(
        _ sortedKeys: [Key], header: SortedTable.Header, to path: String, mode: mode_t, durable: Bool,
        value: (Key) -> Value
    ) throws(DurableFile.WriteError) {
        precondition(header.count == sortedKeys.count)
        try SortedTable.write(header: header, to: path, mode: mode, durable: durable) { index in
            let key = sortedKeys[index]
            return (Codec.bytes(of: key), Codec.bytes(of: value(key)))
        }
    }
}

extension LayeredMap: Equatable where Codec.Value: Equatable {
    /// Two maps are equal when they hold the same entries, however each is layered.
    public static func == (left: LayeredMap, right: LayeredMap) -> Bool {
        left.count == right.count && left.dictionary() == right.dictionary()
    }
}
