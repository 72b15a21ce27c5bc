import LedgerStore
import LedgerFormat

/// Reference §3.6: a receipt names a verdict the ledger holds, and its status is what
/// validation derives at its receipt time (`stored` while `executeAfter` is in the future, else
/// `queued`). When it was received is ``TimeOrderPolicy``'s to judge.
public struct ReceiptPolicy: LedgerPolicy {
    public static let name = "ReceiptPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        var failures: [PolicyFailure] = []
        for file in step.files {
            guard let receipt = file.receipt else { continue }
            let record = receipt.verdictRef.hex
            guard let verdict = file.checks.referenced(Verdict.self) else {
                failures.append(
                    failure(step, path: file.path, record: record, "names a verdict the ledger does not hold"))
                continue
            }
            if let mandate = file.checks.referenced(Mandate.self),
                let manifest = file.checks.referenced(AuthorityManifest.self),
                case .success(let outcome) = VerdictValidator.validate(
                    verdict, mandate: mandate, manifest: manifest,
                    now: receipt.receivedAt, signature: .valid),  // the signature is VerdictAuthorityPolicy's
                outcome.receiptStatus != receipt.status
            {
                failures.append(
                    failure(
                        step, path: file.path, record: record,
                        "status \(receipt.status.rawValue), but at \(receipt.receivedAt) the verdict is \(outcome.receiptStatus.rawValue)"
                    ))
            }
        }
        return failures
    }
}
