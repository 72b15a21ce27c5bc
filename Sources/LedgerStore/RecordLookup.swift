public import LedgerFormat

/// Records of a ledger by content address, read through one repository handle and one bounded cache —
/// the one lookup the writer's snapshot, the verifier's loader and the verified history use.
///
/// The caller's ``RecordIndex`` says where a record is — its batch and its blob's id, as the tree the index's
/// holder checked named them; the record is read by that id and kept only when it has the address looked
/// up, else read from the batch's folder in ``tree``, so a wrong index entry finds nothing or the right
/// record, never another. A record's bytes never
/// change under its address (the append-only rule), so a record found once is served from the cache in
/// every later tree; an absence is never cached, since a later tree may hold it.
public final class RecordLookup {
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case git(GitError)
        /// The file is there but does not decode as its kind.
        case undecodable(path: String, LedgerFormatError)

        public var description: String {
            switch self {
            case .git(let error): error.description
            case .undecodable(let path, let error): "\(path): \(error)"
            }
        }
    }

    private let repository: Repository
    /// The tree lookups read from (a commit's root tree); nil: the empty tree.
    public var tree: ObjectID?
    /// The records read or kept lately: a lookup's own, or one its holder shares across lookups (a writer's,
    /// from batch to batch, with the replay state it judges by).
    public let cache: RecordCache
    /// How many records were read from the object store (not served from the cache).
    public private(set) var reads = 0

    public init(repository: Repository, tree: ObjectID?, cache: RecordCache = RecordCache()) {
        self.repository = repository
        self.tree = tree
        self.cache = cache
    }

    /// The `T` stored under `address` in ``tree`` (or seen in an earlier tree), nil when there is none.
    ///
    /// Read by the blob id the index records and kept only when the record decoded from it has `address`
    /// — the content address names the content, so a wrong id cannot pass for the record; otherwise (an id
    /// the object store lacks, another record's bytes) it is looked up by its path in ``tree`` as a reader
    /// without an index would.
    public func record<T: StoredRecord>(_ type: T.Type, _ address: ContentAddress, index: RecordIndex) throws(Failure)
        -> T?
    {
        let key = RecordIndex.Key(type, address)
        if let hit = cache.record(type, key) { return hit }
        guard let tree, let location = index.location(of: key) else { return nil }
        reads += 1
        if let bytes = try? repository.readBlob(location.blob, limit: Limits.maxRecordBytes),
            let record = try? T(storedBytes: bytes), record.address == address
        {
            return cache.remember(record, key)
        }
        let path = LedgerLayout.recordPath(type, address, batch: Int64(location.batch))
        let bytes: [UInt8]
        do {
            guard let entry = try repository.entry(at: path, inTree: tree), entry.kind == .blob else { return nil }
            bytes = try repository.readBlob(entry.id, limit: Limits.maxRecordBytes)
        } catch {
            throw .git(error)
        }
        do {
            return cache.remember(try T(storedBytes: bytes), key)
        } catch {
            throw .undecodable(path: path, error)
        }
    }

    /// The same, with a file that does not decode treated as absent (the policies report it).
    public func decodable<T: StoredRecord>(_ type: T.Type, _ address: ContentAddress, index: RecordIndex)
        throws(GitError) -> T?
    {
        do {
            return try record(type, address, index: index)
        } catch {
            if case .git(let error) = error { throw error }
            return nil
        }
    }
}

/// The records a ``RecordLookup`` read lately, by kind and content address, in two generations: when
/// the recent one holds half of ``limit``, it becomes the older one (the one before is dropped); a hit in
/// the older one moves back. A record's bytes never change under its address, so what it holds is right in
/// every later tree of the ledger it was read from.
public final class RecordCache {
    /// Most records kept.
    public let limit: Int
    private var recent: [RecordIndex.Key: any StoredRecord] = [:]
    private var older: [RecordIndex.Key: any StoredRecord] = [:]

    public init(limit: Int = 8192) {
        self.limit = limit
    }

    /// The `T` kept under `key`, nil when none is.
    func record<T: StoredRecord>(_ type: T.Type, _ key: RecordIndex.Key) -> T? {
        if let hit = recent[key] as? T { return hit }
        if let hit = older[key] as? T { return remember(hit, key) }
        return nil
    }

    func remember<T: StoredRecord>(_ record: T, _ key: RecordIndex.Key) -> T {
        if recent.count >= limit / 2 {
            older = recent
            recent = [:]
        }
        recent[key] = record
        return record
    }

    /// Keeps the records a replay state just indexed (`ReplayState.apply(_:)` returns them), each decoded
    /// from the very blob the index now names for its own kind and address: what a later lookup would have
    /// read, decoded and kept. Only kinds a record may name in a later commit are kept
    /// (`StoredRecords.referencedAcrossCommits`); the rest would only push those out.
    public func keep(_ records: [any StoredRecord]) {
        for record in records {
            let kind = type(of: record)
            guard StoredRecords.referencedAcrossCommits.contains(kind.code) else { continue }
            _ = remember(record, RecordIndex.Key(kind, record.address))
        }
    }
}
