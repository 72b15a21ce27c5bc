import LedgerStore
import LedgerFormat

/// Bounded work on hostile input (docs/VERIFY.md): oversized files, huge folders and absurd counts are rejected before
/// they cost memory or time — sizes come from object headers, and oversized content is never read.
public struct RecordLimitsPolicy: LedgerPolicy {
    public static let name = "RecordLimitsPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        var failures: [PolicyFailure] = []
        for change in step.changes where change.kind != .deleted {
            if change.objectKind == .tree, let count = change.size {
                failures.append(
                    failure(
                        step, path: change.path,
                        "a folder of \(count) entries, over the limit of \(CommitLoader.maxTreeEntries); not read further"
                    ))
            } else if change.objectKind == .blob, let size = change.size, size > Limits.maxRecordBytes {
                failures.append(
                    failure(
                        step, path: change.path,
                        "\(size) bytes, over the record limit of \(Limits.maxRecordBytes); not read"))
            }
        }
        let added = step.changes.filter { $0.kind == .added && $0.objectKind == .blob }.count
        if added > CommitLoader.maxFilesPerCommit {
            failures.append(
                failure(step, "\(added) files in one commit, over the limit of \(CommitLoader.maxFilesPerCommit)"))
        }
        return failures
    }
}
