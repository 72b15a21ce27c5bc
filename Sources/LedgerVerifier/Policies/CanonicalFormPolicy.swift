import LedgerWriter
import LedgerFormat

/// DESIGN §4: a stored record's bytes must *be* canonical JSON — the verifier rejects, it never
/// normalizes. Manifests are exact published bytes and are exempt.
public struct CanonicalFormPolicy: LedgerPolicy {
    public static let name = "CanonicalFormPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        step.files.compactMap { file in
            guard !file.isCanonical else { return nil }
            if case .failure = file.content, (try? CanonicalJSON.parse(file.bytes)) == nil { return nil }  // schema reports it
            return failure(
                step, path: file.path, "the bytes are not canonical JSON (sorted keys, compact, reference escapes)")
        }
    }
}
