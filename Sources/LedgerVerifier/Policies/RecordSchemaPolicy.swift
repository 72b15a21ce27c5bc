import LedgerStore
import LedgerFormat

/// docs/VERIFY.md: every file parses under the strict rules and decodes as its kind (schemas/). The
/// allowed-signers file's grammar is its form, which `CanonicalFormPolicy` reports.
public struct RecordSchemaPolicy: LedgerPolicy {
    public static let name = "RecordSchemaPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        step.files.compactMap { file in
            guard case .failure(let error) = file.content, file.meaning != .allowedSigners else { return nil }
            return failure(step, path: file.path, record: error.path, "\(error.code): \(error.reason)")
        }
    }
}
