import LedgerStore
import LedgerFormat

/// docs/FORMAT.md "Commits": every commit states the log's size and head after it. Because each
/// later commit restates them, truncating or reordering the log's tail contradicts the trailers.
public struct LogTrailerPolicy: LedgerPolicy {
    public static let name = "LogTrailerPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        guard let trailers = step.trailers else {
            return [
                failure(step, "the commit message has no \(LedgerTrailers.sizeKey)/\(LedgerTrailers.headKey) trailers")
            ]
        }
        let after = ReplayState.logPosition(after: step, size: state.logSize, head: state.logHead)
        var failures: [PolicyFailure] = []
        if trailers.logSize != after.size {
            failures.append(
                failure(step, "the trailers state \(trailers.logSize) entries; the log holds \(after.size)"))
        }
        if trailers.logHead != after.head {
            failures.append(
                failure(
                    step,
                    "the trailers state head \(trailers.logHead); the log's head is \(after.head)"
                ))
        }
        return failures
    }
}
