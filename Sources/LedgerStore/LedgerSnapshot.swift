public import LedgerFormat

/// A ledger as of one commit, read through one repository handle — the one read model the writer's view of
/// its tip, the verifier's resumption and the verified history are built on: the root files
/// (descriptor, signers, trailers), records by content address through one bounded cache, write-log entries
/// by sequence, and each binding's last written bits.
///
/// It reads; it does not judge. What it returns is what the commit holds, whether or not that verifies —
/// the writer checks its tip with the policies, the verifier only wraps a snapshot it verified.
public final class LedgerSnapshot {
    /// Why a snapshot could not answer: git failed, a file the format requires is not there, or a file does
    /// not decode as what its path says it is.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case git(GitError)
        case missing(path: String)
        case undecodable(path: String, LedgerFormatError)

        public var description: String {
            switch self {
            case .git(let error): error.description
            case .missing(let path): "\(path) is missing"
            case .undecodable(let path, let error): "\(path): \(error)"
            }
        }
    }

    public let repository: Repository
    public let tip: ObjectID
    public let commit: CommitInfo
    /// Which batch stores each record at the tip (the caller's, or rebuilt from the batch folders).
    public let index: RecordIndex
    private let records: RecordLookup
    /// The batch folders' files, listed once when first needed.
    private var listing: [Repository.BatchFile]?

    /// - Parameter index: the tip's record index when the caller has it (a replay state that reached the
    ///   tip); otherwise it is rebuilt from the tip's batch folders.
    /// - Parameter records: records already read or kept from this ledger (a writer's, from batch to batch).
    public init(
        repository: Repository, tip: ObjectID, index: RecordIndex? = nil, records: RecordCache = RecordCache()
    ) throws(GitError) {
        self.repository = repository
        self.tip = tip
        commit = try repository.commit(tip)
        self.records = RecordLookup(repository: repository, tree: commit.tree, cache: records)
        if let index {
            self.index = index
        } else {
            let files = try repository.batchFiles(inCommit: tip)
            listing = files
            self.index = RecordIndex(files)
        }
    }

    /// The tip's root tree.
    public var tree: ObjectID { commit.tree }
    /// The tip's ledger trailers (log size and head), nil when its message has none.
    public var trailers: LedgerTrailers? { LedgerTrailers(message: commit.message) }

    // MARK: - Files

    public func contains(_ path: String) throws(GitError) -> Bool {
        try repository.entry(at: path, inTree: commit.tree) != nil
    }

    /// The bytes of the file at `path` (nil when there is none, or it is not a file), up to the record limit.
    public func file(_ path: String) throws(GitError) -> [UInt8]? {
        guard let entry = try repository.entry(at: path, inTree: commit.tree), entry.kind == .blob else { return nil }
        return try repository.readBlob(entry.id, limit: Limits.maxRecordBytes)
    }

    private func required(_ path: String) throws(Failure) -> [UInt8] {
        let bytes: [UInt8]?
        do { bytes = try file(path) } catch { throw .git(error) }
        guard let bytes else { throw .missing(path: path) }
        return bytes
    }

    /// The ledger's descriptor (`ledger.json`).
    public func descriptor() throws(Failure) -> LedgerDescriptor {
        let path = LedgerLayout.descriptorPath
        let bytes = try required(path)
        do {
            return try LedgerDescriptor(json: try CanonicalJSON.parseCanonical(bytes))
        } catch {
            throw .undecodable(path: path, error)
        }
    }

    /// The keys that may sign the next commit (`keys/allowed_signers`).
    public func allowedSigners() throws(Failure) -> AllowedSigners {
        let path = LedgerLayout.allowedSignersPath
        let bytes = try required(path)
        do {
            return try AllowedSigners(text: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw .undecodable(path: path, error)
        }
    }

    /// The body of the tip's checkpoint (origin, size, root), nil when it has none that parses.
    public func checkpointBody() throws(GitError) -> String? {
        try file(LedgerLayout.checkpointPath).flatMap {
            try? SignedNote(parsing: String(decoding: $0, as: UTF8.self)).text
        }
    }

    // MARK: - Records

    /// The `T` the tip stores under `address` (nil when it stores none).
    public func record<T: StoredRecord>(_ type: T.Type, _ address: ContentAddress) throws(RecordLookup.Failure) -> T? {
        try records.record(type, address, index: index)
    }

    /// The same, with a file that does not decode treated as absent (the policies report it).
    public func decodable<T: StoredRecord>(_ type: T.Type, _ address: ContentAddress) throws(GitError) -> T? {
        try records.decodable(type, address, index: index)
    }

    /// The bytes the tip stores for `record`'s kind and address (nil when it stores none): equal bytes mean
    /// the record is already published.
    public func storedBytes(like record: some StoredRecord) throws(GitError) -> [UInt8]? {
        try stored(.init(type(of: record), record.address), like: record.storedBytes) { batch in
            LedgerLayout.recordPath(of: record, batch: batch)
        }
    }

    /// The manifest signature the tip stores for `hash` (nil when it stores none), asked with the bytes a
    /// batch brings for it.
    public func manifestSignature(_ hash: ContentAddress, like bytes: [UInt8]) throws(GitError) -> [UInt8]? {
        try stored(.init(manifestSignature: hash), like: bytes) { LedgerLayout.manifestSignaturePath(hash, batch: $0) }
    }

    /// What the tip stores under `key`: `bytes` themselves when the blob the index names for it is the blob of
    /// those bytes — then they are the ones stored, and no tree is read (a record re-sent with every batch, as
    /// a manifest is, cost each append a walk through six trees, one of them new each commit) — else the file
    /// at `path(batch)` in the tip's tree.
    private func stored(_ key: RecordIndex.Key, like bytes: [UInt8], path: (Int64) -> String) throws(GitError)
        -> [UInt8]?
    {
        guard let location = index.location(of: key) else { return nil }
        if try Repository.blobID(of: bytes) == location.blob { return bytes }
        return try file(path(Int64(location.batch)))
    }

    /// Every record and manifest signature in the tip's batch folders, in batch order (``Repository/batchFiles(inCommit:)``),
    /// listed once.
    public func batchFiles() throws(GitError) -> [Repository.BatchFile] {
        if let listing { return listing }
        let files = try repository.batchFiles(inCommit: tip)
        listing = files
        return files
    }

    /// The files of one stored kind at the tip, in batch order, contents unread.
    public func entries(_ kind: any StoredRecord.Type) throws(GitError) -> [TreeEntry] {
        try batchFiles().compactMap { file in
            if case .record(let found, _) = file.meaning, found == kind { return file.entry }
            return nil
        }
    }

    /// Every record of one kind at the tip, in batch order: listed from the batch folders' trees and read
    /// by id. A file that does not decode fails the whole read (the caller decides whether that matters).
    public func all<T: StoredRecord>(_ type: T.Type) throws(Failure) -> [T] {
        let entries: [TreeEntry]
        do { entries = try self.entries(type) } catch { throw .git(error) }
        return try entries.map { (entry) throws(Failure) in try decoded(type, entry) }
    }

    /// The record a batch file holds, as the kind its path names (nil for a manifest signature); a file that
    /// does not decode fails, as in ``all(_:)``.
    public func record(in file: Repository.BatchFile) throws(Failure) -> (any StoredRecord)? {
        guard case .record(let kind, _) = file.meaning else { return nil }
        return try decoded(kind, file.entry)
    }

    private func decoded<T: StoredRecord>(_ type: T.Type, _ entry: TreeEntry) throws(Failure) -> T {
        let bytes: [UInt8]
        do { bytes = try repository.readBlob(entry.id, limit: Limits.maxRecordBytes) } catch { throw .git(error) }
        do { return try T(storedBytes: bytes) } catch { throw .undecodable(path: entry.name, error) }
    }

    // MARK: - The write log

    /// Write-log entry `sequence`, nil when the tip's log does not hold it.
    public func logEntry(_ sequence: Int64) throws(Failure) -> WriteLogEntry? {
        let path = LedgerLayout.logEntryPath(sequence)
        let bytes: [UInt8]?
        do { bytes = try file(path) } catch { throw .git(error) }
        guard let bytes else { return nil }
        do {
            return try WriteLogEntry(json: try CanonicalJSON.parse(bytes))
        } catch {
            throw .undecodable(path: path, error)
        }
    }

    /// The log's first `size` entries, in sequence order: listed from the log's trees (zero-padded names, so
    /// tree order is sequence order; each tree read once) and read by id.
    public func logEntries(upTo size: Int64) throws(Failure) -> [WriteLogEntry] {
        let files: [TreeEntry]
        do { files = try repository.logEntries(inCommit: tip) } catch { throw .git(error) }
        var entries: [WriteLogEntry] = []
        for file in files {
            let bytes: [UInt8]
            do { bytes = try repository.readBlob(file.id, limit: Limits.maxRecordBytes) } catch { throw .git(error) }
            let entry: WriteLogEntry
            do {
                entry = try WriteLogEntry(json: try CanonicalJSON.parse(bytes))
            } catch {
                throw .undecodable(path: "\(LedgerLayout.logFolder)/…/\(file.name)", error)
            }
            guard entry.sequence <= size else { break }
            entries.append(entry)
        }
        return entries
    }

    /// Each binding's last successful write among the log's first `size` entries, counting only writes
    /// recorded at or before `time` if given.
    public func lastWrittenBits(upTo size: Int64, recordedBy time: Instant? = nil) throws(Failure)
        -> [WireString: DeviceBits]
    {
        var bits: [WireString: DeviceBits] = [:]
        for entry in try logEntries(upTo: size) where entry.succeeded && time.map({ entry.recordedAt <= $0 }) ?? true {
            bits[entry.deviceBinding] = DeviceBits(caseOpen: entry.caseOpen, banned: entry.banned)
        }
        return bits
    }
}
