import LedgerStore
import LedgerFormat

/// docs/FORMAT.md "Commits": every commit's message is in the trailer grammar and states the log's size and
/// head after it. Because each later commit restates them, truncating or reordering the log's tail
/// contradicts the trailers. A stated `Onym-Ledger-Writes` digest is the digest of the write entries the
/// commit adds. An `Onym-Ledger-Idempotency-Key` names one batch: no commit among the
/// `LedgerTrailers/retryWindow` before it carries the same key — the writer's retry contract
/// (docs/DECISIONS.md), which the writer applies by finding the key there and logging nothing twice.
public struct LogTrailerPolicy: LedgerPolicy {
    public static let name = "LogTrailerPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        guard let trailers = step.trailers else {
            // Off the grammar: say how (the loader's trailers are nil exactly when the parse fails).
            var reason = "the commit message has no \(LedgerTrailers.sizeKey)/\(LedgerTrailers.headKey) trailers"
            if case .failure(let error) = LedgerTrailers.parse(message: step.commit.message) {
                reason = error.description
            }
            return [failure(step, "off the commit-message grammar (docs/FORMAT.md \"Commits\"): \(reason)")]
        }
        var failures: [PolicyFailure] = []
        if let key = trailers.idempotencyKey, let distance = state.maps.recentIdempotencyKeys.distance(of: key) {
            failures.append(
                failure(
                    step, record: key,
                    "\(LedgerTrailers.idempotencyKeyKey) \(key) was carried \(distance) commit(s) before: a key names "
                        + "one batch within \(LedgerTrailers.retryWindow) commits (a retry logs nothing twice)"))
        }
        let after = ReplayState.logPosition(after: step, size: state.logSize, head: state.logHead)
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
