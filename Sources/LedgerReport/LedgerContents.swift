public import LedgerFormat
public import LedgerStore
public import LedgerVerifier

/// Everything a verified ledger holds, decoded once, for the public report and the DSA export: every record
/// of every kind with where it is stored, every write-log entry, and how the commit signers changed.
///
/// Built only from a `AuditedLedger` (verified history), so every byte here passed the verifier; it is still
/// published to readers, so every string in it is rendered as text, never as markup or a link target.
public struct LedgerContents: Sendable {
    /// One stored record: its decoded value, its canonical bytes and its path in the ledger.
    public struct Stored: Sendable {
        public let record: any StoredRecord
        public let path: String
        public var kindName: String { type(of: record).kindName }
        public var address: ContentAddress { record.address }
    }

    /// A change of the keys that may sign the next commit (`keys/allowed_signers`), at the commit that made it.
    public struct SignerChange: Sendable {
        public let commit: ObjectID
        public let time: Instant
        public let keys: [String]
        public let added: [String]
        public let removed: [String]
    }

    public let descriptor: LedgerDescriptor
    public let tip: ObjectID
    public var records: [Stored] = []
    public var entries: [WriteLogEntry] = []
    public var signerChanges: [SignerChange] = []

    /// Decoded records by kind (typed views over ``records``).
    public var manifests: [AuthorityManifest] { records.compactMap { $0.record as? AuthorityManifest } }
    public var mandates: [Mandate] { records.compactMap { $0.record as? Mandate } }
    public var verdicts: [Verdict] { records.compactMap { $0.record as? Verdict } }
    public var receipts: [VerdictReceipt] { records.compactMap { $0.record as? VerdictReceipt } }
    public var revocations: [RevocationDetermination] {
        records.compactMap { $0.record as? RevocationDetermination }
    }
    public var compromiseReports: [CompromiseReport] { records.compactMap { $0.record as? CompromiseReport } }
    public var profile: EnforcementProfile? {
        records.lazy.compactMap { $0.record as? EnforcementProfile }.first { $0.ref == descriptor.profile }
    }

    /// Reads every record, log entry and signer change of the verified tip.
    public init(_ ledger: AuditedLedger) throws(LedgerSnapshot.Failure) {
        let snapshot = ledger.history.snapshot
        descriptor = try snapshot.descriptor()
        tip = snapshot.tip
        let repository = snapshot.repository
        do {
            for file in try snapshot.batchFiles() {
                guard case .record(let kind, let address) = file.meaning else { continue }
                let path = LedgerLayout.recordPath(kind, address, batch: file.batch)
                let bytes = try repository.readBlob(file.entry.id, limit: Limits.maxRecordBytes)
                do {
                    records.append(Stored(record: try kind.init(storedBytes: bytes), path: path))
                } catch {
                    throw LedgerSnapshot.Failure.undecodable(path: path, error)
                }
            }
            entries = try snapshot.logEntries(upTo: snapshot.trailers?.logSize ?? 0)
            signerChanges = try Self.signerChanges(repository: repository, tip: tip)
        } catch let error as LedgerSnapshot.Failure {
            throw error
        } catch let error as GitError {
            throw .git(error)
        } catch {
            throw .missing(path: "\(error)")
        }
    }

    /// Every commit whose `keys/allowed_signers` differs from its parent's, oldest first.
    private static func signerChanges(repository: Repository, tip: ObjectID) throws -> [SignerChange] {
        var changes: [SignerChange] = []
        var previousID: ObjectID?
        var previousKeys: [String] = []
        for id in try repository.history(from: tip) {
            guard let entry = try repository.entry(at: LedgerLayout.allowedSignersPath, inCommit: id),
                entry.id != previousID
            else { continue }
            previousID = entry.id
            let text = String(decoding: try repository.readBlob(entry.id, limit: Limits.maxRecordBytes), as: UTF8.self)
            let keys = try AllowedSigners(text: text).keys.map(OpenSSHKey.fingerprint)
            changes.append(
                SignerChange(
                    commit: id, time: Instant(seconds: try repository.commit(id).time), keys: keys,
                    added: keys.filter { !previousKeys.contains($0) },
                    removed: previousKeys.filter { !keys.contains($0) }))
            previousKeys = keys
        }
        return changes
    }
}
