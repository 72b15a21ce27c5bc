import LedgerFormat
import LedgerStore

/// Only canonical git objects, and bounded work on hostile input (docs/DECISIONS.md): every tree a commit
/// adds is in the form `git fsck --strict` demands (`CanonicalTree`), with the modes a ledger uses,
/// no deeper than `CommitLoader/maxTreeDepth`, no larger than `CommitLoader/maxTreeBytes`, and the
/// commit changes at most `CommitLoader/maxFilesPerCommit` entries. Such objects are refused before
/// anything below them is read, so the verifier and stock git never see two different ledgers.
public struct GitObjectPolicy: LedgerPolicy {
    public static let name = "GitObjectPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        step.anomalies.map { failure(step, path: $0.path, $0.reason) }
    }
}
