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
    public var grants: [Grant] { records.compactMap { $0.record as? Grant } }
    public var redemptions: [Redemption] { records.compactMap { $0.record as? Redemption } }
    public var profile: EnforcementProfile? {
        records.lazy.compactMap { $0.record as? EnforcementProfile }.first { $0.ref == descriptor.profile }
    }

    /// Reads every record, log entry and signer change of the verified tip.
    public init(_ ledger: AuditedLedger) throws(LedgerSnapshot.Failure) {
        let snapshot = ledger.history.snapshot
        descriptor = try snapshot.descriptor()
        tip = snapshot.tip
        let repository = snapshot.repository
        let files: [Repository.BatchFile]
        do { files = try snapshot.batchFiles() } catch { throw .git(error) }
        for file in files {
            guard case .record(let kind, let address) = file.meaning else { continue }
            let path = LedgerLayout.recordPath(kind, address, batch: file.batch)
            let bytes: [UInt8]
            do { bytes = try repository.readBlob(file.entry.id, limit: Limits.maxRecordBytes) } catch {
                throw .git(error)
            }
            do {
                records.append(Stored(record: try kind.init(storedBytes: bytes), path: path))
            } catch {
                throw .undecodable(path: path, error)
            }
        }
        entries = try snapshot.logEntries(upTo: snapshot.trailers?.logSize ?? 0)
        let versions: [Repository.SignersVersion]
        do { versions = try repository.allowedSignersHistory(from: tip) } catch { throw .git(error) }
        var previous: [String] = []
        for version in versions {
            let keys = version.signers.keys.map(OpenSSHKey.fingerprint)
            signerChanges.append(
                SignerChange(
                    commit: version.commit, time: Instant(seconds: version.time), keys: keys,
                    added: keys.filter { !previous.contains($0) }, removed: previous.filter { !keys.contains($0) }))
            previous = keys
        }
    }
}
