public import LedgerWriter

/// Why a `follow` pass stopped. Nothing of the pass's unpublished batches was written; batches published
/// before the failure stand (each is one whole commit), and the next pass resumes after them.
public enum FollowError: Error, CustomStringConvertible, Sendable {
    /// The store cannot be followed: a broken write-log chain, a row changed after it was imported, a row the
    /// ledger cannot take. `row` names the table and key (`write_log sequence 7`), `evidence` what differs.
    case refusedStore(row: String, rule: String, evidence: String)
    /// The store cannot be opened or read (SQLite's message).
    case unreadableStore(String)
    /// The ledger refused or failed a batch (the writer's own error, with its policy and input).
    case append(AppendError, batch: String)

    public var description: String {
        switch self {
        case .refusedStore(let row, let rule, let evidence): "\(row): \(rule): \(evidence); nothing was written"
        case .unreadableStore(let message): message
        case .append(let error, let batch): "\(batch): \(error)"
        }
    }
}
