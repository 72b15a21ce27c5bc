public import LedgerFormat
public import LedgerStore

/// A ledger as of one commit, read through one repository handle: its descriptor, its signers,
/// its log position, and lookups of the records it holds.
///
/// Read before verification, so callers treat it as the writer's own view, not as verified history.
public final class LedgerState {
    public let repository: Repository
    public let tip: ObjectID
    public let descriptor: LedgerDescriptor
    public let signers: AllowedSigners
    public let trailers: LedgerTrailers
    public let commitTime: Int64
    /// The tip's root tree (lookups start here, not at the commit).
    let rootTree: ObjectID

    /// Records at the tip, read once (the lookup the verifier uses too).
    private let records: RecordLookup
    /// Which batch stores each record at the tip.
    public let index: RecordIndex
    /// The batch number the next commit that stores records opens.
    public var nextBatch: Int64 { index.lastBatch + 1 }

    /// - Parameter index: the tip's record index when the caller has it (the writer's replay state);
    ///   otherwise it is rebuilt from the tip's batch folders.
    public init(repository: Repository, tip: ObjectID, index: RecordIndex? = nil) throws(AppendError) {
        self.repository = repository
        self.tip = tip
        let source = repository.path
        do {
            let commit = try repository.commit(tip)
            commitTime = commit.time
            rootTree = commit.tree
            records = RecordLookup(repository: repository, tree: commit.tree)
            self.index = try index ?? repository.recordIndex(inCommit: tip)
            guard let trailers = LedgerTrailers(message: commit.message) else {
                throw AppendError(
                    source: source, record: tip.hex, rule: "ledger.trailers",
                    reason: "the tip commit has no \(LedgerTrailers.sizeKey)/\(LedgerTrailers.headKey) trailers")
            }
            self.trailers = trailers
            guard
                let descriptorBytes = try repository.blob(
                    at: LedgerLayout.descriptorPath, inCommit: tip,
                    limit: Limits.maxRecordBytes)
            else {
                throw AppendError(
                    source: source, record: tip.hex, rule: "ledger.descriptor",
                    reason: "\(LedgerLayout.descriptorPath) is missing: not an onym ledger")
            }
            descriptor = try LedgerDescriptor(json: try CanonicalJSON.parseCanonical(descriptorBytes))
            guard
                let signerBytes = try repository.blob(
                    at: LedgerLayout.allowedSignersPath, inCommit: tip,
                    limit: Limits.maxRecordBytes)
            else {
                throw AppendError(
                    source: source, record: tip.hex, rule: "ledger.allowedSigners",
                    reason: "\(LedgerLayout.allowedSignersPath) is missing")
            }
            signers = try AllowedSigners(text: String(decoding: signerBytes, as: UTF8.self))
        } catch let error as AppendError {
            throw error
        } catch let error as LedgerFormatError {
            throw AppendError(source: source, record: tip.hex, error)
        } catch {
            throw AppendError.from(error, source: source)
        }
    }

    // MARK: - Lookups

    public func contains(_ path: String) throws(AppendError) -> Bool {
        do {
            return try repository.entry(at: path, inTree: rootTree) != nil
        } catch {
            throw AppendError.git(error, source: repository.path, record: path)
        }
    }

    public func file(_ path: String) throws(AppendError) -> [UInt8]? {
        do {
            guard let entry = try repository.entry(at: path, inTree: rootTree), entry.kind == .blob else { return nil }
            return try repository.readBlob(entry.id, limit: Limits.maxRecordBytes)
        } catch {
            throw AppendError.git(error, source: repository.path, record: path)
        }
    }

    /// The bytes the tip stores for `record`'s kind and address (nil when it stores none): equal bytes
    /// mean the record is already published.
    public func storedBytes(like record: some StoredRecord) throws(AppendError) -> [UInt8]? {
        guard let batch = index.batch(of: type(of: record), record.address) else { return nil }
        return try file(LedgerLayout.recordPath(of: record, batch: batch))
    }

    /// The manifest signature the tip stores for `hash`, if any.
    public func manifestSignature(_ hash: ContentAddress) throws(AppendError) -> [UInt8]? {
        guard let batch = index.batch(of: RecordIndex.Key(manifestSignature: hash)) else { return nil }
        return try file(LedgerLayout.manifestSignaturePath(hash, batch: batch))
    }

    public func mandate(_ ref: ContentAddress) throws(AppendError) -> Mandate? { try record(Mandate.self, ref) }

    public func manifest(_ hash: ContentAddress) throws(AppendError) -> AuthorityManifest? {
        try record(AuthorityManifest.self, hash)
    }

    /// The `T` the tip holds under `address`; a file there that does not decode is a broken ledger.
    private func record<T: StoredRecord>(_ type: T.Type, _ address: ContentAddress) throws(AppendError) -> T? {
        do {
            return try records.record(type, address, index: index)
        } catch {
            switch error {
            case .git(let git): throw AppendError.git(git, source: repository.path, record: address.hex)
            case .undecodable(_, let format): throw AppendError(source: repository.path, record: address.hex, format)
            }
        }
    }

    public func logEntry(_ sequence: Int64) throws(AppendError) -> WriteLogEntry? {
        guard let bytes = try file(LedgerLayout.logEntryPath(sequence)) else { return nil }
        do {
            return try WriteLogEntry(json: try CanonicalJSON.parse(bytes))
        } catch {
            throw AppendError(source: repository.path, record: "log \(sequence)", error)
        }
    }

    /// How many recent batches a retried append is recognized in (see ``batch(withIdempotencyKey:)``).
    public static let retryWindow = 256

    /// The trailers of the batch among the last ``retryWindow`` that carries `key`, with its commit: the
    /// first attempt of a retried append landed before its process could acknowledge it.
    public func batch(withIdempotencyKey key: String) throws(AppendError) -> (
        commit: ObjectID, trailers: LedgerTrailers
    )? {
        var current: ObjectID? = tip
        var seen = 0
        do {
            while let id = current, seen < Self.retryWindow {
                let commit = try repository.commit(id)
                if let trailers = LedgerTrailers(message: commit.message), trailers.idempotencyKey == key {
                    return (id, trailers)
                }
                current = commit.parents.first
                seen += 1
            }
        } catch {
            throw AppendError.git(error, source: repository.path, record: current?.hex)
        }
        return nil
    }
}
