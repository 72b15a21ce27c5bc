import LedgerFormat
import LedgerStore

/// Who may accuse whom (docs/DECISIONS.md): a manifest may not claim an authority id the ledger already knows
/// with another operator key (`AuthorityIdentity`, the rule the writer applies too).
public struct AuthorityIdentityPolicy: LedgerPolicy {
    public static let name = AuthorityIdentity.ruleName

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        var known = state.maps.manifests
        var failures: [PolicyFailure] = []
        for file in step.files {
            guard let manifest = file.manifest else { continue }
            if let reason = AuthorityIdentity.conflict(manifest, known: known) {
                failures.append(failure(step, path: file.path, record: manifest.hash.hex, reason))
            }
            known.append(manifest)
        }
        return failures
    }
}
