public import LedgerFormat
public import LedgerStore

/// The writer's view of its tip: the tip's `LedgerSnapshot` (the read model the verifier uses too) with the
/// root files a batch is planned against decoded, and every failure as an ``AppendError`` naming the ledger.
///
/// Read before verification, so callers treat it as the writer's own view, not as verified history.
public final class LedgerState {
    public let snapshot: LedgerSnapshot
    public let descriptor: LedgerDescriptor
    public let signers: AllowedSigners
    public let trailers: LedgerTrailers

    public var repository: Repository { snapshot.repository }
    public var tip: ObjectID { snapshot.tip }
    public var commitTime: Int64 { snapshot.commit.time }
    /// Which batch stores each record at the tip.
    public var index: RecordIndex { snapshot.index }
    /// The batch number the next commit that stores records opens.
    public var nextBatch: Int64 { index.lastBatch + 1 }

    /// - Parameter index: the tip's record index when the caller has it (the writer's replay state);
    ///   otherwise it is rebuilt from the tip's batch folders.
    /// - Parameter records: the records the writer keeps from batch to batch with that state.
    public init(
        repository: Repository, tip: ObjectID, index: RecordIndex? = nil, records: RecordCache = RecordCache()
    ) throws(AppendError) {
        let source = repository.path
        do {
            snapshot = try LedgerSnapshot(repository: repository, tip: tip, index: index, records: records)
        } catch {
            throw AppendError.git(error, source: source, record: tip.hex)
        }
        guard let trailers = snapshot.trailers else {
            throw AppendError(
                source: source, record: tip.hex, rule: "ledger.trailers",
                reason: "the tip commit has no \(LedgerTrailers.sizeKey)/\(LedgerTrailers.headKey) trailers")
        }
        self.trailers = trailers
        do {
            descriptor = try snapshot.descriptor()
            signers = try snapshot.allowedSigners()
        } catch {
            throw Self.refusal(error, source: source, record: tip.hex)
        }
    }

    /// A snapshot failure as the writer reports it: git's code kept, a missing root file under the rule of
    /// the file, an undecodable file with its format error.
    static func refusal(_ failure: LedgerSnapshot.Failure, source: String, record: String?) -> AppendError {
        switch failure {
        case .git(let error): return AppendError.git(error, source: source, record: record)
        case .missing(let path) where path == LedgerLayout.descriptorPath:
            return AppendError(
                source: source, record: record, rule: "ledger.descriptor",
                reason: "\(path) is missing: not an onym ledger")
        case .missing(let path) where path == LedgerLayout.allowedSignersPath:
            return AppendError(
                source: source, record: record, rule: "ledger.allowedSigners", reason: "\(path) is missing")
        case .missing(let path):
            return AppendError(source: source, record: record, rule: "ledger.file", reason: "\(path) is missing")
        case .undecodable(_, let error): return AppendError(source: source, record: record, error)
        }
    }

    // MARK: - Lookups

    public func contains(_ path: String) throws(AppendError) -> Bool {
        do { return try snapshot.contains(path) } catch {
            throw AppendError.git(error, source: repository.path, record: path)
        }
    }

    public func file(_ path: String) throws(AppendError) -> [UInt8]? {
        do { return try snapshot.file(path) } catch {
            throw AppendError.git(error, source: repository.path, record: path)
        }
    }

    /// The bytes the tip stores for `record`'s kind and address (nil when it stores none): equal bytes
    /// mean the record is already published.
    public func storedBytes(like record: some StoredRecord) throws(AppendError) -> [UInt8]? {
        do {
            return try snapshot.storedBytes(like: record)
        } catch {
            throw AppendError.git(error, source: repository.path, record: record.address.hex)
        }
    }

    /// The manifest signature the tip stores for `hash`, if any (asked with the bytes a batch brings).
    public func manifestSignature(_ hash: ContentAddress, like bytes: [UInt8]) throws(AppendError) -> [UInt8]? {
        do {
            return try snapshot.manifestSignature(hash, like: bytes)
        } catch {
            throw AppendError.git(error, source: repository.path, record: hash.hex)
        }
    }

    public func mandate(_ ref: ContentAddress) throws(AppendError) -> Mandate? { try record(Mandate.self, ref) }

    public func manifest(_ hash: ContentAddress) throws(AppendError) -> AuthorityManifest? {
        try record(AuthorityManifest.self, hash)
    }

    /// The `T` the tip holds under `address`; a file there that does not decode is a broken ledger.
    private func record<T: StoredRecord>(_ type: T.Type, _ address: ContentAddress) throws(AppendError) -> T? {
        do {
            return try snapshot.record(type, address)
        } catch {
            switch error {
            case .git(let git): throw AppendError.git(git, source: repository.path, record: address.hex)
            case .undecodable(_, let format): throw AppendError(source: repository.path, record: address.hex, format)
            }
        }
    }

    public func logEntry(_ sequence: Int64) throws(AppendError) -> WriteLogEntry? {
        do {
            return try snapshot.logEntry(sequence)
        } catch {
            throw Self.refusal(error, source: repository.path, record: "log \(sequence)")
        }
    }

    /// How many recent batches a retried append is recognized in (see ``batch(withIdempotencyKey:)``).
    public static let retryWindow = LedgerTrailers.retryWindow

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
