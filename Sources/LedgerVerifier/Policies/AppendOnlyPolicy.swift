import LedgerStore
import LedgerFormat

/// DESIGN §3, §6.1: nothing is ever modified or deleted. The one file a commit may replace is
/// `keys/allowed_signers` (a rotation); `ledger.json` is the DescriptorPolicy's.
public struct AppendOnlyPolicy: LedgerPolicy {
    public static let name = "AppendOnlyPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        step.changes.compactMap { change in
            guard change.path != LedgerLayout.descriptorPath else { return nil }
            switch change.kind {
            case .added:
                return nil
            case .modified:
                if change.path == LedgerLayout.allowedSignersPath && change.objectKind == .blob { return nil }
                return failure(step, path: change.path, "modified after it was published")
            case .deleted:
                return failure(step, path: change.path, "deleted after it was published")
            }
        }
    }
}
