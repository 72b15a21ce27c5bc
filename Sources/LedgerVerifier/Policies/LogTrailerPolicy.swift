import LedgerStore
import LedgerFormat

/// docs/FORMAT.md "Commits": every commit states the log's size and head after it. Because each
/// later commit restates them, truncating or reordering the log's tail contradicts the trailers. A stated
/// `Onym-Ledger-Writes` digest is the digest of the write entries the commit adds.
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
        // The digest a keyed retry is recognized by must be the commit's own writes, or a writer could be
        // shown a batch it never made.
        if let digest = trailers.writesDigest {
            let requests = step.files.compactMap(\.entry).sorted { $0.sequence < $1.sequence }.map(
                WriteRequest.init(of:))
            if WriteRequest.digest(requests) != digest {
                failures.append(
                    failure(
                        step,
                        "the \(LedgerTrailers.writesKey) digest \(digest.hex) is not the digest of the \(requests.count) "
                            + "write entries the commit adds"))
            }
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
