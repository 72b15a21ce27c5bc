import LedgerWriter
import LedgerFormat

/// Profile §6.1, reference §4.1: every verdict arrives with its receipt, and passes verdict
/// validation against its mandate and consented manifest at the time the vendor received it.
public struct VerdictValidationPolicy: LedgerPolicy {
    public static let name = "VerdictValidationPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        step.files.compactMap { file in
            guard let verdict = file.verdict, let mandate = file.checks.mandate, let manifest = file.checks.manifest
            else {
                return nil  // VerdictAuthorityPolicy reports missing references
            }
            guard let receipt = file.checks.receipt else {
                return failure(
                    step, path: file.path, record: verdict.ref.hex, "the verdict has no receipt in its commit")
            }
            switch VerdictValidator.validate(
                verdict, mandate: mandate, manifest: manifest, now: receipt.receivedAt,
                signature: file.checks.operatorSignature)
            {
            case .success:
                return nil
            case .failure(let rejection):
                return failure(
                    step, path: file.path, record: verdict.ref.hex,
                    "invalid when received at \(receipt.receivedAt): \(rejection)")
            }
        }
    }
}
