/// The reference fold (reference §4.3 `enforcement.rs::intended_marks`, seed §6) plus the rules the
/// profile requires and the reference lacks: what one device binding's bits should be at time T.
///
/// Pure: verdict facts, revocations and T in, bits and their authorization out. No git, no clock.
public enum DeviceFold {
    public struct Result: Sendable, Equatable {
        public let bits: DeviceBits
        /// What a write of ``bits`` at T is logged against: a verdictRef or an ``EvaluatorRule`` name.
        public let authorizedBy: String
        /// The open cases (the open-case verdicts that opened them), in decision order.
        public let openCases: [VerdictFact]
        /// The bans in force, in decision order; the last is the governing one.
        public let inForceBans: [VerdictFact]
        /// Which rules closed something (for explanations).
        public let appliedRules: [EvaluatorRule]

        public var governingBan: VerdictFact? { inForceBans.last }
    }

    /// Folds `facts` (the binding's verdicts, any order, duplicates allowed) at `time`; the rules are
    /// numbered F1–F12 in docs/DECISIONS.md ("The fold, rule by rule").
    ///
    /// * F1: only verdicts the vendor has received by T count (``VerdictFact/knownAt``), in signed
    ///   decision order however they arrived; a verdict delivered twice counts once.
    /// * F2: a revoked authority's verdicts decided at or after the revocation's effective time are
    ///   not executed (``DesignationRevocation``).
    /// * F3–F8: each case is folded on its own in decision order (`CaseHistory`).
    /// * F11: the marks aggregate over cases; `authorizedBy` is the newest in-force ban, else the
    ///   newest open case, else the latest step at or before T, else `reconciliation`.
    /// * F12: redeemed grants (``GrantRedemption``): folding `binding`, a verdict counts where the
    ///   recoveries redeemed by T moved its case (`facts` may hold the verdicts of every binding that
    ///   moves into it, ``GrantRedemption/sources(of:_:)``); an unban redeemed by T ends the grantee's bans
    ///   of its case decided by then.
    public static func evaluate(
        _ facts: [VerdictFact], revocations: [DesignationRevocation.Effect] = [],
        redemptions: [GrantRedemption.Effect] = [], on binding: WireString? = nil, at time: Instant
    )
        -> Result
    {
        let redeemed = redemptions.filter { $0.applies(at: time) }
        // F12: each fact counts where the recoveries redeemed by T put it — the binding it names when none
        // has moved it, even when `facts` holds the verdicts of a binding a later recovery moves in.
        var facts = facts
        if let binding, !redeemed.isEmpty || facts.contains(where: { $0.deviceBinding != binding }) {
            facts = facts.filter { GrantRedemption.binding(of: $0, at: time, redeemed) == binding }
        }
        var revokedAt: [WireString: Instant] = [:]
        for revocation in revocations where revocation.applies(at: time) {
            revokedAt[revocation.authority] = min(
                revokedAt[revocation.authority] ?? revocation.effectiveAt, revocation.effectiveAt)
        }
        let ordered = knownVerdicts(facts, revokedAt: revokedAt, at: time).sorted(by: Self.precedes)

        // Each case's verdicts, the cases in the order of their first verdicts: a case's key is hashed once
        // for each of its verdicts (twice for its first), not three times.
        var caseAt: [VerdictFact.CaseKey: Int] = [:]
        var cases: [(key: VerdictFact.CaseKey, verdicts: [CaseHistory.Ordered])] = []
        for (order, fact) in ordered.enumerated() {
            let verdict = CaseHistory.Ordered(fact: fact, order: order)
            let key = fact.caseKey
            if let index = caseAt[key] {
                cases[index].verdicts.append(verdict)
            } else {
                caseAt[key] = cases.count
                cases.append((key, [verdict]))
            }
        }
        // F12: unbans in redemption order — `redeemedAt`, then `grantRef` (docs/DECISIONS.md, "Unbans at one
        // instant").
        let unbans = redeemed.filter { $0.grantType == .unban }.sorted {
            ($0.redeemedAt, $0.grantRef) < ($1.redeemedAt, $1.grantRef)
        }
        .enumerated().map { CaseHistory.Unban(effect: $0.element, order: $0.offset) }
        var openCases: [CaseHistory.Ordered] = []
        var inForce: [CaseHistory.Ordered] = []
        var latestStep: FoldStep?
        var applied: [EvaluatorRule] = []
        for (key, verdicts) in cases {
            let history = CaseHistory(
                verdicts, revokedAt: revokedAt[key.authority],
                unbans: unbans.isEmpty ? [] : unbans.filter { $0.effect.caseKey == key }, at: time)
            if let opener = history.openedBy { openCases.append(opener) }
            if let ban = history.banInForce { inForce.append(ban) }
            if let last = history.steps.max(), latestStep == nil || latestStep! < last { latestStep = last }
            for rule in history.appliedRules where !applied.contains(rule) { applied.append(rule) }
        }
        openCases.sort { $0.order < $1.order }
        inForce.sort { $0.order < $1.order }
        let bits = DeviceBits(caseOpen: !openCases.isEmpty, banned: !inForce.isEmpty)
        let authorizedBy =
            inForce.last?.fact.ref.hex ?? openCases.last?.fact.ref.hex ?? latestStep?.label
            ?? EvaluatorRule.reconciliation.rawValue
        return Result(
            bits: bits, authorizedBy: authorizedBy, openCases: openCases.map(\.fact), inForceBans: inForce.map(\.fact),
            appliedRules: applied)
    }

    /// F1 and F2: the verdicts known at `time`, each once (its earliest receipt), without those a
    /// revoked authority decided from the revocation's effective time on.
    static func knownVerdicts(_ facts: [VerdictFact], revokedAt: [WireString: Instant], at time: Instant)
        -> [VerdictFact]
    {
        var byRef: [ContentAddress: VerdictFact] = [:]
        for fact in facts where fact.knownAt <= time {
            if let revoked = revokedAt[fact.authority], fact.decidedAt >= revoked { continue }
            if let seen = byRef[fact.ref], seen.receivedAt <= fact.receivedAt { continue }
            byRef[fact.ref] = fact
        }
        return Array(byRef.values)
    }

    /// Fold order: signed `decidedAt`, then open-case < ban < dismiss, then receipt order, then ref.
    static func precedes(_ a: VerdictFact, _ b: VerdictFact) -> Bool {
        if a.decidedAt != b.decidedAt { return a.decidedAt < b.decidedAt }
        if a.disposition.tieRank != b.disposition.tieRank { return a.disposition.tieRank < b.disposition.tieRank }
        if a.receivedAt != b.receivedAt { return a.receivedAt < b.receivedAt }
        return a.ref < b.ref
    }
}
