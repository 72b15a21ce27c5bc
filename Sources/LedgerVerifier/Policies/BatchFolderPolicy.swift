import LedgerFormat
import LedgerStore

/// docs/FORMAT.md "Paths" (format version 2): a commit stores its records in **one new batch folder**,
/// numbered one past the last batch folder of its parent (1 for the first), and nowhere else — so no
/// commit writes into a batch an earlier commit published, and a record's path says which commit
/// published it.
public struct BatchFolderPolicy: LedgerPolicy {
    public static let name = "BatchFolderPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        let expected = state.records.lastBatch + 1
        var failures: [PolicyFailure] = []
        var reported: Set<Int64> = []
        for change in step.changes where change.kind == .added && change.objectKind == .blob {
            guard let batch = change.located?.batch, batch != expected,
                reported.insert(batch).inserted
            else { continue }
            let reason =
                batch <= state.records.lastBatch
                ? "adds to batch \(batch), which an earlier commit published; this commit's records belong in "
                    + "batch \(expected) (\(LedgerLayout.batchFolder(expected)))"
                : "opens batch \(batch) where the next batch is \(expected) (\(LedgerLayout.batchFolder(expected)))"
            failures.append(failure(step, path: change.path, reason))
        }
        return failures
    }
}
