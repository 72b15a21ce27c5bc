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
    /// Most records kept.
    public let limit: Int
    /// The records read lately, in two generations: when ``recent`` holds half of ``limit``, it becomes
    /// ``older`` (the one before is dropped); a hit in ``older`` moves back to ``recent``.
    private var recent: [RecordIndex.Key: any StoredRecord] = [:]
    private var older: [RecordIndex.Key: any StoredRecord] = [:]
    /// How many records were read from the object store (not served from the cache).
    public private(set) var reads = 0

    public init(repository: Repository, tree: ObjectID?, limit: Int = 8192) {
        self.repository = repository
        self.tree = tree
        self.limit = limit
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
        if let hit = recent[key] as? T { return hit }
        if let hit = older[key] as? T { return remember(hit, key) }
        guard let tree, let location = index.location(of: key) else { return nil }
        reads += 1
        if let bytes = try? repository.readBlob(location.blob, limit: Limits.maxRecordBytes),
            let record = try? T(storedBytes: bytes), record.address == address
        {
            return remember(record, key)
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
            return remember(try T(storedBytes: bytes), key)
        } catch {
            throw .undecodable(path: path, error)
        }
    }

    /// Keeps `record`, decoded from the very blob `index` now names for its key (the caller has just put it
    /// there), so that a later lookup of it is served without reading it again: what that lookup would
    /// have read, decoded and kept. Only kinds a record may name in a later commit are kept
    /// (``StoredRecords/referencedAcrossCommits``); the rest would only push those out.
    public func keep(_ record: any StoredRecord) {
        let kind = type(of: record)
        guard StoredRecords.referencedAcrossCommits.contains(kind.code) else { return }
        _ = remember(record, RecordIndex.Key(kind, record.address))
    }

    private func remember<T: StoredRecord>(_ record: T, _ key: RecordIndex.Key) -> T {
        if recent.count >= limit / 2 {
            older = recent
            recent = [:]
        }
        recent[key] = record
        return record
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
