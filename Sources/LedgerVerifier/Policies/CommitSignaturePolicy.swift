import LedgerStore
import LedgerFormat

/// docs/FORMAT.md, "Commits": exactly one SSHSIG per commit, namespace `git`, valid over the commit, by a key
/// the parent commit's `keys/allowed_signers` lists (the auditor's trust root for the first commit).
/// Validity is decided by position: a key removed in commit N signs nothing after N, whatever date
/// a later commit claims.
public struct CommitSignaturePolicy: LedgerPolicy {
    public static let name = "CommitSignaturePolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        switch step.signature {
        case .missing:
            return [failure(step, "the commit is unsigned")]
        case .malformed(let reason):
            return [failure(step, "malformed signature: \(reason)")]
        case .parsed(let signature, _, let isValid):
            var failures: [PolicyFailure] = []
            if signature.namespace != "git" {
                failures.append(failure(step, "signature namespace is '\(signature.namespace)', not 'git'"))
            } else if !isValid {
                failures.append(failure(step, "the signature does not verify over the commit"))
            }
            if !state.admitsSigner(signature.publicKey) {
                let authority =
                    state.signers == nil
                    ? "the trust root (\(state.trustRoot.description))" : "the parent commit's allowed signers"
                failures.append(
                    failure(step, "signed by \(OpenSSHKey.fingerprint(signature.publicKey)), which is not \(authority)")
                )
            }
            return failures
        }
    }
}
