import LedgerStore
import LedgerFormat

/// docs/VERIFY.md, "The replay, step by step": every write names a device binding some mandate in the ledger names, and
/// every mandate is for this ledger's interface (the vendor writes only for its own mandated users).
public struct MandateScopePolicy: LedgerPolicy {
    public static let name = "MandateScopePolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        var failures: [PolicyFailure] = []
        let descriptor = state.descriptor(for: step)
        // The commit's own mandates beside the state's (a copy of the state's set would cost every binding
        // of the ledger per commit).
        var added: Set<String> = []
        for file in step.files {
            guard let mandate = file.mandate else { continue }
            added.insert(mandate.deviceBinding)
            if let descriptor, mandate.interface != descriptor.interface {
                failures.append(
                    failure(
                        step, path: file.path, record: mandate.ref.hex,
                        "a mandate for \(mandate.interface) in \(descriptor.interface)'s ledger"))
            }
        }
        for file in step.files {
            guard let entry = file.entry, !state.isMandated(entry.deviceBinding),
                !added.contains(entry.deviceBinding)
            else { continue }
            failures.append(
                failure(
                    step, path: file.path, record: "sequence \(entry.sequence)",
                    "a write to device binding \(entry.deviceBinding), which no mandate in the ledger names"))
        }
        return failures
    }
}
