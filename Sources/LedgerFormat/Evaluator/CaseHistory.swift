/// One case's verdicts folded at time T: whether the case is open, which of its bans is in force, and
/// the steps it contributed to the binding's time line (docs/DECISIONS.md, "The fold, rule by rule").
///
/// The walk follows decision order (signed `decidedAt`, then open-case < ban < dismiss, receipt, ref —
/// reference §4.2). A case moves through phases:
///
/// * *fresh* → an open-case verdict opens it, with the deadline of that verdict (F4);
/// * *open* → a ban or dismissal decides it (F5); or its deadline passes first and the
///   decision-deadline default closes it (F6): a case never decided in time is *defaulted* and nothing
///   later in it is executed (F7), while a reopened case (an open-case verdict after a decision) only
///   loses its case-open mark;
/// * *decided* → later verdicts execute by the ordinary rules (reversals, re-bans, reopening).
///
/// Bans then take effect at `executeAfter` and end at the first of: their expiry, a later-decided
/// dismissal, a later-decided ban taking effect, a designation revocation without a surviving forum
/// (F8), or an unban grant redeemed for an identity it accuses (F12).
struct CaseHistory {
    /// A verdict with its position in the binding's decision order.
    struct Ordered {
        let fact: VerdictFact
        let order: Int
    }

    /// An unban redemption with its position in redemption order — `redeemedAt`, then `grantRef`: at one
    /// instant unbans take effect in that order (docs/DECISIONS.md, "Unbans at one instant").
    struct Unban {
        let effect: GrantRedemption.Effect
        let order: Int
    }

    private enum Phase {
        case fresh
        case open(opener: Ordered, deadline: Instant?, reopened: Bool)
        case decided
        case defaulted
    }

    /// The open-case verdict that opened the case, if it is open at T.
    private(set) var openedBy: Ordered?
    /// The case's ban in force at T.
    private(set) var banInForce: Ordered?
    private(set) var steps: [FoldStep] = []
    private(set) var appliedRules: [EvaluatorRule] = []

    /// Folds one case's executed-or-not verdicts (already in decision order, all known by `time`).
    /// - Parameter revokedAt: when the case's authority's designation revocation took effect, if it
    ///   has by `time` (verdicts it decided from then on are already left out).
    /// - Parameter unbans: the case's unban redemptions by `time` (``GrantRedemption``), in redemption order.
    init(_ verdicts: [Ordered], revokedAt: Instant?, unbans: [Unban] = [], at time: Instant) {
        var phase = Phase.fresh
        var dismissals: [Ordered] = []
        var bans: [Ordered] = []
        for verdict in verdicts {
            let fact = verdict.fact
            if case .open(let opener, let deadline?, let reopened) = phase,
                DecisionDeadlineDefault.isBlown(deadline, by: fact.decidedAt)
            {
                // A verdict counts from its receipt (F1), which may precede its signed `decidedAt` by up to
                // 300 s: at T the deadline it comes after may not have passed yet.
                if deadline <= time {
                    recordDefault(at: deadline, opener: opener)
                    phase = reopened ? .decided : .defaulted
                } else if !reopened {
                    break  // late, and every verdict after it too; the case is open until its deadline (F7)
                }
            }
            if case .defaulted = phase { continue }  // F7: a late verdict in a defaulted case is not executed
            steps.append(FoldStep(instant: fact.decidedAt, kind: .decision, order: verdict.order, verdict: fact.ref))
            switch fact.disposition {
            case .openCase:
                switch phase {
                case .open: break  // the first open-case verdict of a phase fixes its deadline
                case .fresh: phase = .open(opener: verdict, deadline: fact.decisionDeadline, reopened: false)
                case .decided, .defaulted:
                    phase = .open(opener: verdict, deadline: fact.decisionDeadline, reopened: true)
                }
            case .dismiss:
                phase = .decided
                dismissals.append(verdict)
            case .ban:
                phase = .decided
                bans.append(verdict)
            }
        }
        if case .open(let opener, let deadline, _) = phase {
            closeOpenPhase(opener: opener, deadline: deadline, revokedAt: revokedAt, at: time)
        }
        for ban in bans {
            settle(ban, laterDismissals: dismissals, laterBans: bans, revokedAt: revokedAt, unbans: unbans, at: time)
        }
    }

    /// The case is still open after its last verdict: its deadline default (F6) or a revocation (F10)
    /// may close it by T, whichever comes first; otherwise it is open at T.
    private mutating func closeOpenPhase(opener: Ordered, deadline: Instant?, revokedAt: Instant?, at time: Instant) {
        let byDeadline = deadline.map { FoldStep(instant: $0, kind: .deadlineDefault, order: opener.order, label: "") }
        let byRevocation = revokedAt.map { FoldStep(instant: $0, kind: .revocation, order: 0, label: "") }
        let first = [byDeadline, byRevocation].compactMap { $0 }.filter { $0.instant <= time }.min()
        switch first?.kind {
        case .deadlineDefault?: recordDefault(at: first!.instant, opener: opener)
        case .revocation?: recordRevocation(at: first!.instant)
        default: openedBy = opener
        }
    }

    /// F8: when a ban of this case takes effect and what ends it, by T.
    private mutating func settle(
        _ ban: Ordered, laterDismissals: [Ordered], laterBans: [Ordered], revokedAt: Instant?, unbans: [Unban],
        at time: Instant
    ) {
        guard let start = Self.start(of: ban, at: time) else { return }  // pending, or never
        var enders = Self.enders(
            of: ban, laterDismissals: laterDismissals, revokedAt: revokedAt, unbans: unbans, at: time)
        for later in laterBans where later.order > ban.order {
            // A later ban of the case ends this one when it takes effect; one that ends before it begins (an
            // unban of the identity it accuses, F12: "a pending one never takes effect") ends nothing. Whether
            // an even later ban ended it first does not matter: that one ended this ban earlier still.
            guard let laterStart = Self.start(of: later, at: time),
                Self.enders(
                    of: later, laterDismissals: laterDismissals, revokedAt: revokedAt, unbans: unbans, at: time
                ).allSatisfy({ laterStart < $0 })
            else { continue }
            enders.append(FoldStep(instant: laterStart.instant, kind: .banStart, order: later.order, label: ""))
        }
        guard let end = enders.min() else {
            steps.append(start)
            banInForce = ban
            return
        }
        guard start < end else { return }  // ended before it began: never took effect
        steps.append(start)
        switch end.kind {
        case .banExpiry, .grantRedemption: steps.append(end)
        case .revocation: recordRevocation(at: end.instant)
        default: break  // a later decision of the case ended it; that decision is already a step
        }
    }

    /// When `ban` takes effect, if it has by T.
    private static func start(of ban: Ordered, at time: Instant) -> FoldStep? {
        guard let startsAt = ban.fact.banStartsAt, startsAt <= time else { return nil }
        return FoldStep(instant: startsAt, kind: .banStart, order: ban.order, verdict: ban.fact.ref)
    }

    /// What ends `ban` by T, other than a later ban of its case taking effect (F8, F10, F12).
    private static func enders(
        of ban: Ordered, laterDismissals: [Ordered], revokedAt: Instant?, unbans: [Unban], at time: Instant
    ) -> [FoldStep] {
        var enders: [FoldStep] = []
        for dismissal in laterDismissals where dismissal.order > ban.order {
            enders.append(
                FoldStep(instant: dismissal.fact.decidedAt, kind: .decision, order: dismissal.order, label: ""))
        }
        if let expires = ban.fact.banExpires, expires <= time {
            enders.append(
                FoldStep(instant: expires, kind: .banExpiry, order: ban.order, label: EvaluatorRule.expiry.rawValue))
        }
        // F12: the first unban (in redemption order) redeemed for an identity the ban accuses ends it, if it
        // was decided by then.
        if let unban = unbans.first(where: {
            ban.fact.accusedKeys.contains($0.effect.grantee) && ban.fact.decidedAt <= $0.effect.redeemedAt
        }) {
            enders.append(
                FoldStep(
                    instant: unban.effect.redeemedAt, kind: .grantRedemption, order: unban.order,
                    label: unban.effect.label))
        }
        if let revokedAt, ban.fact.externalAppellate == nil {
            enders.append(FoldStep(instant: revokedAt, kind: .revocation, order: 0, label: ""))
        }
        return enders
    }

    private mutating func recordDefault(at deadline: Instant, opener: Ordered) {
        steps.append(
            FoldStep(
                instant: deadline, kind: .deadlineDefault, order: opener.order,
                label: DecisionDeadlineDefault.rule.rawValue
            ))
        if !appliedRules.contains(.decisionDeadlineDefault) { appliedRules.append(.decisionDeadlineDefault) }
    }

    private mutating func recordRevocation(at effectiveAt: Instant) {
        steps.append(
            FoldStep(
                instant: effectiveAt, kind: .revocation, order: 0, label: DesignationRevocation.rule.rawValue))
        if !appliedRules.contains(.designationRevocation) { appliedRules.append(.designationRevocation) }
    }
}
