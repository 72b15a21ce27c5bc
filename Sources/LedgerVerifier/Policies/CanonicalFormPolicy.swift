import LedgerStore
import LedgerFormat

/// docs/FORMAT.md, "Canonical JSON": a stored record's bytes must *be* canonical JSON — the verifier rejects, it never
/// normalizes. Manifests are exact published bytes and are exempt. `keys/allowed_signers` is not JSON: its
/// form is the allowed-signers grammar docs/FORMAT.md states, whose decoder (`AllowedSigners`) is the rule;
/// this policy reports its refusals (any form of the grammar is accepted, not only the writer's).
public struct CanonicalFormPolicy: LedgerPolicy {
    public static let name = "CanonicalFormPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        step.files.compactMap { file in
            if case .allowedSigners = file.meaning {
                guard case .failure(let error) = file.content else { return nil }
                return failure(
                    step, path: file.path, record: error.path,
                    "off the allowed-signers grammar (docs/FORMAT.md): \(error.reason)")
            }
            guard !file.isCanonical else { return nil }
            // Bytes that do not even parse: RecordSchemaPolicy reports them.
            if case .failure = file.content, (try? CanonicalJSON.parse(file.bytes)) == nil { return nil }
            return failure(
                step, path: file.path, "the bytes are not canonical JSON (sorted keys, compact, reference escapes)")
        }
    }
}
