import LedgerStore
import LedgerFormat

/// DESIGN §4: a stored record's bytes must *be* canonical JSON — the verifier rejects, it never
/// normalizes. Manifests are exact published bytes and are exempt. `keys/allowed_signers` must be in
/// the writer's form (`AllowedSigners/isWriterForm(_:)`), which `ssh-keygen -Y verify` accepts too.
public struct CanonicalFormPolicy: LedgerPolicy {
    public static let name = "CanonicalFormPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        step.files.compactMap { file in
            guard !file.isCanonical else { return nil }
            // Bytes that do not even parse: RecordSchemaPolicy reports them.
            if case .failure = file.content, (try? CanonicalJSON.parse(file.bytes)) == nil { return nil }
            if case .allowedSigners = file.meaning {
                return failure(
                    step, path: file.path,
                    "not in the writer's form: one 'onym-ledger namespaces=\"git\" ssh-ed25519 KEY' line per key")
            }
            return failure(
                step, path: file.path, "the bytes are not canonical JSON (sorted keys, compact, reference escapes)")
        }
    }
}
