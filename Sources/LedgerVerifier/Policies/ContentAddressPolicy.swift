import LedgerStore
import LedgerFormat

/// docs/FORMAT.md, "Paths": a record's file name is its content address (mandateRef,
/// verdictRef, manifest hash, profile ref; a receipt is named by its verdict), recomputed here —
/// the failure shows both hashes.
public struct ContentAddressPolicy: LedgerPolicy {
    public static let name = "ContentAddressPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        step.files.compactMap { file in
            guard case .record(_, let named) = file.meaning, case .success(let content) = file.content,
                let actual = content.address, actual != named
            else { return nil }
            return failure(
                step, path: file.path, record: actual.hex, "named \(named.hex) but its content address is \(actual.hex)"
            )
        }
    }
}
