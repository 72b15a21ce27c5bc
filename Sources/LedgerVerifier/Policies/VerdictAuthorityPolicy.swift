import LedgerStore
import LedgerFormat

/// docs/DECISIONS.md, "Keys and signatures": a verdict is authenticated offline through a chain — it names a mandate in
/// the ledger, that mandate pins a manifest by the hash of its exact bytes, and the verdict's signature verifies under
/// that manifest's `operator` key (reference §4.1 step 1, strict Ed25519).
public struct VerdictAuthorityPolicy: LedgerPolicy {
    public static let name = "VerdictAuthorityPolicy"
    public static let judgedSignatures = JudgedSignature.declared(by: [Verdict.self])

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        step.files.compactMap { file in
            guard let verdict = file.verdict else { return nil }
            let record = verdict.ref.hex
            guard let mandate = file.checks.referenced(Mandate.self) else {
                return failure(
                    step, path: file.path, record: record,
                    "names mandate \(verdict.mandateRef.hex), which the ledger does not hold")
            }
            guard file.checks.referenced(AuthorityManifest.self) != nil else {
                return failure(
                    step, path: file.path, record: record,
                    "the mandate's consented manifest \(mandate.manifestHash.hex) is not in the ledger")
            }
            guard file.checks.signatures[.operator] == .valid else {
                return failure(
                    step, path: file.path, record: record,
                    "the signature does not verify under the consented manifest's operator key")
            }
            return nil
        }
    }
}
