/// The reference fold (reference §4.3 `enforcement.rs::intended_marks`, seed §6) plus the rules the
/// profile requires and the reference lacks: what one device binding's bits should be at time T.
///
/// Pure: verdict facts, revocations and T in, bits and their authorization out. No git, no clock.
public enum DeviceFold {
    public struct Result: Sendable, Equatable {
        public let bits: DeviceBits
        /// What a write of ``bits`` at T is logged against: a verdictRef or an ``EvaluatorRule`` name.
        public let authorizedBy: String
        /// The open cases (their open-case verdicts), oldest first.
        public let openCases: [VerdictFact]
        /// The bans in force, in fold order; the last is the governing one.
        public let inForceBans: [VerdictFact]
        /// Which rules closed something (for explanations).
        public let appliedRules: [EvaluatorRule]

        public var governingBan: VerdictFact? { inForceBans.last }
    }

    /// Folds `facts` (the binding's verdicts, any order) at `time`.
    ///
    /// 1. Only verdicts *received* by T count (their receipt, not their `decidedAt`).
    /// 2. Verdicts of an authority whose designation was revoked, decided at or after the effective
    ///    time, are not executed (``DesignationRevocation``).
    /// 3. A case's open-case verdicts are superseded once any terminal verdict of the case arrived.
    /// 4. The rest is walked by signed `decidedAt` (instant), ties open-case < ban < dismiss, then
    ///    receipt order; duplicates by verdictRef count once.
    /// 5. A terminal verdict decided after its case's decision deadline is not executed; an open case
    ///    past its deadline with no terminal verdict closes (``DecisionDeadlineDefault``).
    /// 6. A revocation closes the authority's open cases and clears its bans unless an external
    ///    appellate survives.
    public static func evaluate(
        _ facts: [VerdictFact], revocations: [DesignationRevocation.Effect] = [], at time: Instant
    )
        -> Result
    {
        let revoked = revocations.filter { $0.applies(at: time) }
        var seen: Set<ContentAddress> = []
        let visible = facts.filter { fact in
            guard fact.receivedAt <= time, seen.insert(fact.ref).inserted else { return false }
            return !revoked.contains { $0.authority == fact.authority && fact.decidedAt >= $0.effectiveAt }
        }
        let terminalCases = Set(visible.filter { $0.disposition != .openCase }.map(\.caseId))
        var firstOpenCase: [String: VerdictFact] = [:]
        for fact in visible where fact.disposition == .openCase {
            if let existing = firstOpenCase[fact.caseId], Self.precedes(existing, fact) { continue }
            firstOpenCase[fact.caseId] = fact
        }
        let ordered = visible.sorted(by: Self.precedes)

        var openOrder: [String] = []
        var open: [String: VerdictFact] = [:]
        var bans: [String: VerdictFact] = [:]
        var banOrder: [String] = []
        var lastStep: (time: Instant, label: String)?
        var applied: [EvaluatorRule] = []

        for fact in ordered {
            switch fact.disposition {
            case .openCase:
                guard !terminalCases.contains(fact.caseId) else { continue }  // superseded
                if open[fact.caseId] == nil {
                    open[fact.caseId] = fact
                    openOrder.append(fact.caseId)
                }
                lastStep = (fact.decidedAt, fact.ref.hex)
            case .dismiss:
                if DecisionDeadlineDefault.isLate(fact, openCase: firstOpenCase[fact.caseId]) { continue }
                open[fact.caseId] = nil
                bans[fact.caseId] = nil
                lastStep = (fact.decidedAt, fact.ref.hex)
            case .ban:
                if DecisionDeadlineDefault.isLate(fact, openCase: firstOpenCase[fact.caseId]) { continue }
                open[fact.caseId] = nil
                lastStep = (fact.decidedAt, fact.ref.hex)
                if fact.isBanExpired(at: time) {
                    bans[fact.caseId] = nil
                    lastStep = (fact.decidedAt, EvaluatorRule.expiry.rawValue)
                } else if fact.isBanInForce(at: time) {
                    bans[fact.caseId] = fact
                    banOrder.removeAll { $0 == fact.caseId }
                    banOrder.append(fact.caseId)
                }
            }
        }
        // Decision-deadline default: still-open cases whose deadline passed.
        for caseId in openOrder {
            guard let fact = open[caseId], let deadline = fact.decisionDeadline, deadline <= time else { continue }
            open[caseId] = nil
            if !applied.contains(.decisionDeadlineDefault) { applied.append(.decisionDeadlineDefault) }
            if lastStep == nil || deadline >= lastStep!.time {
                lastStep = (deadline, EvaluatorRule.decisionDeadlineDefault.rawValue)
            }
        }
        // Designation revocation.
        for revocation in revoked {
            var changed = false
            for (caseId, fact) in open where fact.authority == revocation.authority {
                open[caseId] = nil
                changed = true
            }
            for (caseId, fact) in bans where fact.authority == revocation.authority && fact.externalAppellate == nil {
                bans[caseId] = nil
                changed = true
            }
            if changed {
                if !applied.contains(.designationRevocation) { applied.append(.designationRevocation) }
                if lastStep == nil || revocation.effectiveAt >= lastStep!.time {
                    lastStep = (revocation.effectiveAt, EvaluatorRule.designationRevocation.rawValue)
                }
            }
        }

        let openCases = openOrder.compactMap { open[$0] }
        let inForce = banOrder.compactMap { bans[$0] }
        let bits = DeviceBits(caseOpen: !openCases.isEmpty, banned: !inForce.isEmpty)
        // Reference: the newest in-force ban's ref; else the newest open case's ref; else the last step.
        let authorizedBy =
            inForce.last?.ref.hex ?? openCases.last?.ref.hex ?? lastStep?.label ?? EvaluatorRule.reconciliation.rawValue
        return Result(
            bits: bits, authorizedBy: authorizedBy, openCases: openCases, inForceBans: inForce,
            appliedRules: applied)
    }

    /// Fold order: signed `decidedAt`, then open-case < ban < dismiss, then receipt order, then ref.
    static func precedes(_ a: VerdictFact, _ b: VerdictFact) -> Bool {
        if a.decidedAt != b.decidedAt { return a.decidedAt < b.decidedAt }
        if a.disposition.tieRank != b.disposition.tieRank { return a.disposition.tieRank < b.disposition.tieRank }
        if a.receivedAt != b.receivedAt { return a.receivedAt < b.receivedAt }
        return a.ref < b.ref
    }
}
