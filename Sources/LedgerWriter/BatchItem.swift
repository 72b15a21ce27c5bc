public import LedgerFormat
import LedgerStore

/// One record of a batch, decoded from an input file, with the file it came from.
public struct BatchItem: Sendable {
    public enum Content: Sendable {
        /// A record stored as it is (`StoredRecord`): a profile, mandate, verdict, receipt, status
        /// attempt, compromise report, revocation — or any kind registered later.
        case record(any StoredRecord)
        /// A manifest, with the detached signature that came beside it.
        case manifest(AuthorityManifest, detachedSignature: [UInt8]?)
        case submission(VerdictSubmission)
        /// Entries that already carry sequence and chain hashes (a reference audit export).
        case chainedEntries([WriteLogEntry])
        /// Writes without chain fields, in order; the writer computes sequence and chain.
        case writeRequests([WriteRequest])
        /// Witnesses' cosignatures of a checkpoint: one note per witness, each with its one cosignature line.
        case cosignatures([SignedNote])
    }

    public let source: String
    public let content: Content

    /// The stored record this item carries, when it is a `T`.
    public func record<T: StoredRecord>(_ type: T.Type = T.self) -> T? {
        if case .record(let record) = content { return record as? T }
        return nil
    }

    public init(source: String, content: Content) {
        self.source = source
        self.content = content
    }
}
