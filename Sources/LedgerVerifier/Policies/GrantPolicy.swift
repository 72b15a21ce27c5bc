import LedgerFormat
import LedgerStore

/// Onym-wire §3.12, §2; profile §10 "identity-mediated re-linking after reinstall": every redemption
/// the vendor stored is within the rules — its grant signed by the operator key of the grantee's
/// consented manifest, redeemed within its lifetime and skew, once, by the accused grantee with a mandate
/// for the authority on the binding (`GrantRedemption.judge(_:resolved:facts:earlier:)`). A redemption
/// outside them is the vendor's misconduct in an authentic history; it is not executed.
public struct GrantPolicy: LedgerPolicy {
    public static let name = "GrantPolicy"
    public static let findingKind = PolicyFailure.Kind.conduct
    public static let judgedSignatures = JudgedSignature.declared(by: [Redemption.self])

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        // Most commits redeem nothing: the step's verdict facts are worked out only for one that does.
        guard step.files.contains(where: { file in (file.record() as Redemption?) != nil }) else { return [] }
        return state.judgedRedemptions(in: step, newFacts: ReplayState.newFacts(in: step)).compactMap {
            file, judgement in
            guard case .failure(let refusal) = judgement, let redemption: Redemption = file.record() else {
                return nil
            }
            return failure(
                step, path: file.path, record: redemption.ref.hex, "redemption outside the rules: \(refusal.reason)")
        }
    }
}
