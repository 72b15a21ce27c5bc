public import LedgerFormat

/// A ban undone: a dismissal decided in the same case (its authority and case id) after bans no earlier
/// dismissal had undone — a reversal, on appeal or on review. The one reading of "reversal" the binding
/// stories, the authority pages and the DSA export share (docs/DSA.md).
public struct Reversal: Sendable {
    /// The bans the dismissal undoes, in decision order (usually one).
    public let bans: [Verdict]
    public let dismissal: Verdict

    /// Every reversal among `verdicts` (any order, any cases), in the dismissals' decision order; at equal
    /// times the verdicts' tie order (open-case, ban, dismiss) applies, as in the fold.
    public static func all(in verdicts: [Verdict]) -> [Reversal] {
        let ordered = verdicts.sorted {
            ($0.decidedAt, $0.disposition.tieRank, $0.ref.hex) < ($1.decidedAt, $1.disposition.tieRank, $1.ref.hex)
        }
        var standing: [VerdictFact.CaseKey: [Verdict]] = [:]
        var found: [Reversal] = []
        for verdict in ordered {
            let key = VerdictFact.CaseKey(authority: verdict.authority, caseId: verdict.caseId)
            switch verdict.disposition {
            case .ban: standing[key, default: []].append(verdict)
            case .dismiss:
                if let bans = standing.removeValue(forKey: key) {
                    found.append(Reversal(bans: bans, dismissal: verdict))
                }
            case .openCase: break
            }
        }
        return found
    }
}
