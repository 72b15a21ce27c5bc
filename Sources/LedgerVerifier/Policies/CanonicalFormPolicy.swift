import LedgerStore
import LedgerFormat

/// DESIGN §4: a stored record's bytes must *be* canonical JSON — the verifier rejects, it never
/// normalizes. Manifests are exact published bytes and are exempt. `keys/allowed_signers` is not JSON: it
/// follows the allowed-signers grammar docs/FORMAT.md states, whose decoder (`AllowedSigners`) is the rule
/// and whose refusals `RecordSchemaPolicy` reports.
public struct CanonicalFormPolicy: LedgerPolicy {
    public static let name = "CanonicalFormPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        step.files.compactMap { file in
            guard !file.isCanonical else { return nil }
            // Bytes that do not even parse: RecordSchemaPolicy reports them.
            if case .failure = file.content, (try? CanonicalJSON.parse(file.bytes)) == nil { return nil }
            return failure(
                step, path: file.path, "the bytes are not canonical JSON (sorted keys, compact, reference escapes)")
        }
    }
}
