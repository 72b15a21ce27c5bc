import LedgerFormat
import LedgerStore

/// The enforcement profile §11 criterion 4; docs/VERIFY.md, "The replay, step by step": replaying the
/// gate/reconciliation rules over the ledger explains every write — each entry's bits and `authorizedBy` are what
/// `DeviceFold` gives for its binding at its `recordedAt`, from the verdicts received by then. A write the rules do not
/// explain is an unauthorized write.
public struct WriteReplayPolicy: LedgerPolicy {
    public static let name = "WriteReplayPolicy"
    /// A logged write is a call the backend made: a wrong one is misconduct in an authentic history.
    public static let findingKind = PolicyFailure.Kind.conduct

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        let newFacts = ReplayState.newFacts(in: step)
        // Redemptions in the commit count from their time, like its verdicts (F12).
        let redemptions =
            state.maps.redemptions
            + state.judgedRedemptions(in: step, newFacts: newFacts).compactMap { try? $0.judgement.get() }
        var failures: [PolicyFailure] = []
        for file in step.files {
            guard let entry = file.entry else { continue }
            let facts = GrantRedemption.sources(of: entry.deviceBinding, redemptions).flatMap {
                state.facts(of: $0) + (newFacts[$0] ?? [])
            }
            if let mismatch = WriteReplay.check(
                entry, facts: facts, revocations: state.maps.revocations, redemptions: redemptions)
            {
                failures.append(
                    failure(
                        step, path: file.path, record: "sequence \(entry.sequence)",
                        "unauthorized write: \(mismatch.reason)",
                        write: PolicyFailure.WriteDetail(
                            sequence: entry.sequence, recordedAt: entry.recordedAt, binding: entry.deviceBinding,
                            written: "\(mismatch.requested) by \(entry.authorizedBy)",
                            rulesGive: "\(mismatch.intended.bits) by \(mismatch.intended.authorizedBy)")))
            }
        }
        return failures
    }
}
