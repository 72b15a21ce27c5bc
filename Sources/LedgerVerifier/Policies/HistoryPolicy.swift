import LedgerFormat
import LedgerStore
/// docs/FORMAT.md, "Repository": one root, linear history, no merges; and no commit dated after the verification time.
///
/// Dates never decide key validity (that is by position); a future date is still reported, since no
/// honest writer can have made it yet.
public struct HistoryPolicy: LedgerPolicy {
    public static let name = "HistoryPolicy"
    /// The skew allowed between a writer's clock and the auditor's.
    static let futureSkewSeconds: Int64 = 300

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        var failures: [PolicyFailure] = []
        let parents = step.commit.parents
        if state.previous == nil {
            if !parents.isEmpty && step.index == 0 {
                failures.append(
                    failure(
                        step, "the first commit verified has \(parents.count) parent(s); a ledger starts at one root"))
            }
        } else if parents.isEmpty {
            failures.append(failure(step, "a second root commit: history must be one linear chain"))
        } else if parents.count > 1 {
            failures.append(failure(step, "a merge commit with \(parents.count) parents: history must be linear"))
        } else if parents[0] != state.previous {
            failures.append(
                failure(step, "its parent \(parents[0].hex) is not the previous commit \(state.previous!.hex)"))
        }
        if step.commit.time > state.now.seconds + Self.futureSkewSeconds {
            failures.append(
                failure(
                    step,
                    "dated \(Instant(seconds: step.commit.time).rfc3339), more than \(Self.futureSkewSeconds) s after "
                        + "the verification time \(state.now.rfc3339): no honest writer can have made it yet"))
        }
        return failures
    }
}
