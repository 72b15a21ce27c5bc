import LedgerStore
import LedgerFormat

/// docs/VERIFY.md, "The replay, step by step": every write names a device binding some mandate in the ledger names
/// (or a redeemed recovery moved one to, F12), and every mandate is for this ledger's interface (the vendor writes
/// only for its own mandated users).
public struct MandateScopePolicy: LedgerPolicy {
    public static let name = "MandateScopePolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        var failures: [PolicyFailure] = []
        let descriptor = state.descriptor(for: step)
        // The commit's own mandates beside the state's (a copy of the state's set would cost every binding
        // of the ledger per commit).
        var added: Set<WireString> = []
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
        // Bindings a redeemed recovery moved a mandate to (F12), worked out only for a write no stored
        // mandate's binding explains.
        var recoveredInto: Set<WireString>?
        for file in step.files {
            guard let entry = file.entry, !state.isMandated(entry.deviceBinding),
                !added.contains(entry.deviceBinding)
            else { continue }
            if recoveredInto == nil { recoveredInto = Self.recoveredBindings(step, state: state) }
            if recoveredInto?.contains(entry.deviceBinding) == true { continue }
            failures.append(
                failure(
                    step, path: file.path, record: "sequence \(entry.sequence)",
                    "a write to device binding \(entry.deviceBinding), which no mandate in the ledger names"))
        }
        return failures
    }

    /// The `toBinding` of every recovery redeemed within the rules so far or in `step`: each moved the
    /// grantee's mandate there (docs/FORMAT.md "Grants and redemptions"), so a mandate names it.
    static func recoveredBindings(_ step: CommitStep, state: ReplayState) -> Set<WireString> {
        var found = Set(state.maps.redemptions.compactMap(\.toBinding))
        for (_, judgement) in state.judgedRedemptions(in: step, newFacts: ReplayState.newFacts(in: step)) {
            if case .success(let effect) = judgement, let to = effect.toBinding { found.insert(to) }
        }
        return found
    }
}
