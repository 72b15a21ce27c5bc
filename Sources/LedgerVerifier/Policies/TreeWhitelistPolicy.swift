import LedgerStore
import LedgerFormat

/// docs/FORMAT.md, "Paths": every path is on the whitelist of docs/FORMAT.md — exact names, lowercase-hex
/// content addresses or zero-padded sequences in their folders; files are mode 100644, folders
/// 040000; no symlinks, gitlinks, `.git`, `..`, case-variant names or empty folders.
public struct TreeWhitelistPolicy: LedgerPolicy {
    public static let name = "TreeWhitelistPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        var failures: [PolicyFailure] = []
        for change in step.changes where change.kind != .deleted {
            if change.objectKind == .tree {
                if change.isEmptyTree { failures.append(failure(step, path: change.path, "an empty folder")) }
                continue
            }
            switch change.mode {
            case 0o120000:
                failures.append(failure(step, path: change.path, "a symbolic link"))
                continue
            case 0o160000:
                failures.append(failure(step, path: change.path, "a gitlink (submodule)"))
                continue
            case 0o100644:
                break
            default:
                failures.append(
                    failure(
                        step, path: change.path, "file mode \(String(change.mode, radix: 8)), only 100644 is allowed"))
                continue
            }
            if change.located == nil {
                failures.append(failure(step, path: change.path, "not a path the ledger format allows"))
            }
        }
        return failures
    }
}
