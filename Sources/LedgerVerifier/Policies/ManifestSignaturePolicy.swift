import LedgerStore
import LedgerFormat

/// Reference §2 table: a stored detached manifest signature is 64 bytes of Ed25519 by the manifest's
/// own operator over its exact bytes, next to a manifest the ledger holds.
public struct ManifestSignaturePolicy: LedgerPolicy {
    public static let name = "ManifestSignaturePolicy"
    public static let judgedSignatures = JudgedSignature.declared(by: [DetachedManifestSignature.self])

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        step.files.compactMap { file in
            guard case .manifestSignature(let hash) = file.meaning else { return nil }
            guard file.checks.referenced(AuthorityManifest.self) != nil else {
                return failure(
                    step, path: file.path, record: hash.hex, "a signature for a manifest the ledger does not hold")
            }
            guard file.checks.signatures[.manifest] == .valid else {
                return failure(
                    step, path: file.path, record: hash.hex,
                    "the detached signature does not verify under the manifest's operator")
            }
            return nil
        }
    }
}
