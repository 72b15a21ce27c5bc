public import LedgerFormat

/// Where each record is, by kind and content address — the batch that stored it and its blob's id: how a
/// record is found in a version 2 ledger (docs/FORMAT.md, "Paths"), where a record's path names its batch.
///
/// Never input: it is built from the trees of commits the holder read itself (the verifier from the
/// commits it verified, the writer from its own commits or a rebuild), and every lookup through it is
/// confirmed — by the content address of what the blob holds, else against the tree it reads from
/// (``RecordLookup``). A value: a copy of a replay state keeps
/// the index of its commit. Layered (``LayeredMap``): what was saved stays in its file, mapped, and a
/// copy copies only what changed since.
public struct RecordIndex: Sendable, Equatable {
    /// A record's identity: its kind (or a manifest's detached signature) and its content address.
    public struct Key: Hashable, Sendable {
        /// The kind's stable code (`StoredRecord.code`), or 0xFF for a manifest's detached signature.
        public let code: UInt8
        public let address: ContentAddress

        public init(_ kind: any StoredRecord.Type, _ address: ContentAddress) {
            code = kind.code
            self.address = address
        }

        init(code: UInt8, address: ContentAddress) {
            self.code = code
            self.address = address
        }

        public init(manifestSignature hash: ContentAddress) {
            code = RecordIndex.manifestSignatureCode
            self.address = hash
        }

        /// The key of a whitelisted record or signature path's meaning; nil for any other file.
        public init?(_ meaning: LedgerLayout.PathMeaning) {
            switch meaning {
            case .record(let kind, let address): self.init(kind, address)
            case .manifestSignature(let hash): self.init(manifestSignature: hash)
            default: return nil
            }
        }

        /// The kind this key names (nil for a manifest signature).
        public var kind: (any StoredRecord.Type)? {
            StoredRecords.kind(code: code)
        }
    }

    static let manifestSignatureCode: UInt8 = 0xFF

    /// Where a record is: the batch whose folder stores it, and its blob's object id as the tree that
    /// holds it names it (read from a tree the index's holder checked). Twenty-four bytes, no allocation: the
    /// id first, so the batch number fills the four bytes after it (the other order pads to 32, and the
    /// index's dictionary, a key and a location per bucket, was an eighth larger: 75 MB at 10^6 write entries).
    public struct Location: Hashable, Sendable {
        let packedBlob: PackedObjectID
        public let batch: UInt32

        public init(batch: Int64, blob: ObjectID) {
            precondition(batch >= 1 && batch <= LedgerLayout.maxBatch && blob.bytes.count == 20)
            self.batch = UInt32(batch)
            packedBlob = PackedObjectID(blob)
        }

        /// The blob's object id.
        public var blob: ObjectID { packedBlob.objectID }
    }

    /// How the index is kept in a ``SortedTable``: the key's code and address (33 bytes); the batch (4 bytes,
    /// big-endian) and the blob's object id (20 bytes).
    public enum Codec: TableCodec {
        public static var kind: String { "record-locations" }
        public static func bytes(of key: Key) -> [UInt8] {
            var writer = ByteWriter(reserving: 33)
            writer.byte(key.code)
            writer.address(key.address)
            return writer.bytes
        }
        /// The order of the keys' bytes: the code, then the address's big-endian words.
        public static func precedes(_ left: Key, _ right: Key) -> Bool {
            guard left.code == right.code else { return left.code < right.code }
            let (a, b) = (left.address.bigEndianWords, right.address.bigEndianWords)
            return (a.0, a.1, a.2, a.3) < (b.0, b.1, b.2, b.3)
        }
        public static func key(from bytes: [UInt8]) -> Key? {
            guard bytes.count == 33, StoredRecords.kind(code: bytes[0]) != nil || bytes[0] == manifestSignatureCode
            else { return nil }
            var reader = ByteReader(bytes, from: 1)
            guard let address = try? reader.address() else { return nil }
            return Key(code: bytes[0], address: address)
        }
        public static func bytes(of value: Location) -> [UInt8] {
            withUnsafeBytes(of: value.batch.bigEndian) { Array($0) } + value.blob.bytes
        }
        public static func value(from bytes: [UInt8], key: Key) -> Location? {
            guard bytes.count == 24 else { return nil }
            let batch = bytes[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard batch >= 1 && Int64(batch) <= LedgerLayout.maxBatch, let blob = ObjectID(rawBytes: Array(bytes[4...]))
            else { return nil }
            return Location(batch: Int64(batch), blob: blob)
        }
    }

    var batches = LayeredMap<Codec>()
    /// The highest batch number seen: the next batch folder is one past it.
    public private(set) var lastBatch: Int64 = 0

    public init() {}

    /// The index of the listed batch files (``Repository/batchFiles(inCommit:)``).
    public init(_ files: [Repository.BatchFile]) {
        for file in files {
            if let key = Key(file.meaning) { insert(key, Location(batch: file.batch, blob: file.entry.id)) }
            noteBatch(file.batch)
        }
    }

    init(batches: LayeredMap<Codec>, lastBatch: Int64) {
        self.batches = batches
        self.lastBatch = lastBatch
    }

    public static func == (left: RecordIndex, right: RecordIndex) -> Bool {
        left.lastBatch == right.lastBatch && left.count == right.count
            && left.batches.dictionary() == right.batches.dictionary()
    }

    public var count: Int { batches.count }

    /// Keeps the index, past `limit` records held in memory, in a table in `folder` read in place
    /// (``LayeredMap/Spill``): at 10^7 write entries its dictionary was ~1 GB of a full verify's memory.
    public mutating func spill(into folder: String, limit: Int) {
        batches.spill = LayeredMap<Codec>.Spill(folder: folder, limit: limit)
    }

    /// Gives back the memory pages lookups touched in the index's mapped tables.
    public func releasePages() { batches.releasePages() }

    /// The batch that stored `key`, nil when none did.
    public func batch(of key: Key) -> Int64? {
        batches[key].map { Int64($0.batch) }
    }

    /// Where `key` is stored, nil when nowhere.
    public func location(of key: Key) -> Location? {
        batches[key]
    }

    public func batch(of kind: any StoredRecord.Type, _ address: ContentAddress) -> Int64? {
        batch(of: Key(kind, address))
    }

    /// Records where `key` is stored. The first batch to store a key keeps it: the ledger stores each
    /// record once, and the policies refuse a second copy. Whether `key` was new (this location is now
    /// the one the index gives).
    @discardableResult
    public mutating func insert(_ key: Key, _ location: Location) -> Bool {
        lastBatch = max(lastBatch, Int64(location.batch))
        return batches.setIfAbsent(key, location)
    }

    /// Records that a batch folder exists (a batch may hold only files the index does not key).
    public mutating func noteBatch(_ batch: Int64) {
        lastBatch = max(lastBatch, batch)
    }
}
