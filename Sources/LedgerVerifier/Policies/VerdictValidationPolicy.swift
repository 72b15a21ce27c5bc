import LedgerStore
import LedgerFormat

/// Profile §6.1, reference §4.1: every verdict arrives with its receipt, and passes verdict
/// validation against its mandate and consented manifest at the time the vendor received it.
///
/// A stored verdict that fails validation is a conduct finding: the authority signed it and the vendor
/// accepted it, so the history is authentic, and the vendor broke the rules by accepting it. A verdict
/// stored without its receipt is not what the writer publishes: an integrity finding.
public struct VerdictValidationPolicy: LedgerPolicy {
    public static let name = "VerdictValidationPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        step.files.compactMap { file in
            guard let verdict = file.verdict, let mandate = file.checks.referenced(Mandate.self),
                let manifest = file.checks.referenced(AuthorityManifest.self)
            else {
                return nil  // VerdictAuthorityPolicy reports missing references
            }
            guard let receipt = file.checks.referenced(VerdictReceipt.self) else {
                return failure(
                    step, path: file.path, record: verdict.ref.hex, "the verdict has no receipt in its commit")
            }
            switch VerdictValidator.validate(
                verdict, mandate: mandate, manifest: manifest, now: receipt.receivedAt,
                signature: file.checks.signatures[.operator])
            {
            case .success:
                return nil
            case .failure(let rejection):
                return failure(
                    step, path: file.path, record: verdict.ref.hex, kind: .conduct,
                    "invalid when received at \(receipt.receivedAt): \(rejection)")
            }
        }
    }
}
