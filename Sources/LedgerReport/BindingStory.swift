public import LedgerFormat

/// One device binding's history as events in time order — consent, cases opened and decided, bits written
/// and why, deadlines that passed, bans that ended or were reversed — each tied to the record that shows it.
///
/// The explanations come from the evaluator's own fold (`DeviceFold`) over the verified facts: the report
/// says what the rules say, in the words of the rule that applied, not a second reading of them.
public struct BindingStory: Sendable {
    public enum Event: Sendable {
        case consent(Mandate)
        case verdict(Verdict, receipt: VerdictReceipt?, reverses: [Verdict])
        /// An open case's decision deadline passed without a decision the vendor had received: the fold
        /// dismisses it by default.
        case deadlineDefault(openCase: Verdict, deadline: Instant)
        case banEnded(Verdict, at: Instant)
        /// A grant redeemed on or into this binding (docs/FORMAT.md "Grants and redemptions"), with whether
        /// the rules executed it (a redemption outside them has no effect).
        case redemption(Redemption, grant: Grant?, executed: Bool)
        case write(WriteLogEntry, explanation: String, governedBy: ContentAddress?, unauthorized: Bool)

        public var time: Instant {
            switch self {
            case .consent(let mandate): mandate.acceptedAt
            case .verdict(let verdict, let receipt, _): max(verdict.decidedAt, receipt?.receivedAt ?? verdict.decidedAt)
            case .deadlineDefault(_, let deadline): deadline
            case .banEnded(_, let at): at
            case .redemption(let redemption, _, _): redemption.redeemedAt
            case .write(let entry, _, _, _): entry.recordedAt
            }
        }

        /// Ties at one instant read in cause order: consent, verdicts, what the rules did, then the write.
        var rank: Int {
            switch self {
            case .consent: 0
            case .verdict: 1
            case .deadlineDefault, .banEnded, .redemption: 2
            case .write: 3
            }
        }
    }

    public let binding: WireString
    public let events: [Event]
    /// The bits the rules give the binding at the report's time, and what governs them.
    public let intended: DeviceFold.Result
    /// The bits of the binding's last successful write.
    public let lastWritten: DeviceBits?
    /// The identities whose mandates name the binding.
    public let users: [WireString]
    /// The bans that took effect on the binding (`Restriction`, LedgerFormat), by ban: a ban not here never did (or is
    /// still waiting for its `executeAfter`), and the story must not tell it as if it ran.
    public let restrictions: [ContentAddress: Restriction]

    /// The grants redeemed on or into a binding, for its story.
    struct Grants {
        /// The redemptions that name the binding, with their grants.
        var redemptions: [(redemption: Redemption, grant: Grant?)] = []
        /// Every redemption the rules executed (the fold's input).
        var effects: [GrantRedemption.Effect] = []
    }

    /// The story of `binding` from the verified facts (with those a recovery moves into it), with
    /// `unauthorized` the sequences of its writes that conduct findings name.
    init(
        binding: WireString, mandates: [Mandate], verdicts: [Verdict], receipts: [ContentAddress: VerdictReceipt],
        entries: [WriteLogEntry], facts: [VerdictFact], revocations: [DesignationRevocation.Effect],
        grants: Grants = Grants(), unauthorized: Set<Int64>, at now: Instant
    ) {
        self.binding = binding
        let redemptions = grants.effects
        var events: [Event] = mandates.map { .consent($0) }
        for (redemption, grant) in grants.redemptions {
            let executed = redemptions.contains {
                $0.grantRef == redemption.grantRef && $0.redeemedAt == redemption.redeemedAt
            }
            events.append(.redemption(redemption, grant: grant, executed: executed))
        }
        var reversed: [ContentAddress: [Verdict]] = [:]
        for reversal in Reversal.all(in: verdicts) { reversed[reversal.dismissal.ref] = reversal.bans }
        for verdict in verdicts {
            events.append(.verdict(verdict, receipt: receipts[verdict.ref], reverses: reversed[verdict.ref] ?? []))
        }
        let verdictByRef = Dictionary(verdicts.map { ($0.ref, $0) }, uniquingKeysWith: { first, _ in first })
        for fact in facts {
            // What the fold does at the deadline itself: the default applies when the rules say it does.
            if let deadline = fact.decisionDeadline, deadline <= now, let verdict = verdictByRef[fact.ref],
                DeviceFold.evaluate(facts, revocations: revocations, at: deadline).appliedRules.contains(
                    .decisionDeadlineDefault),
                !facts.contains(where: {
                    $0.caseKey == fact.caseKey && $0.disposition != .openCase && $0.knownAt <= deadline
                })
            {
                events.append(.deadlineDefault(openCase: verdict, deadline: deadline))
            }
            if fact.disposition == .ban, let ends = fact.banExpires, ends <= now, let verdict = verdictByRef[fact.ref],
                !facts.contains(where: {
                    $0.caseKey == fact.caseKey && $0.disposition == .dismiss && $0.knownAt <= ends
                })
            {
                events.append(.banEnded(verdict, at: ends))
            }
        }
        for entry in entries {
            let fold = DeviceFold.evaluate(
                facts, revocations: revocations, redemptions: redemptions, on: binding, at: entry.recordedAt)
            let governing = ContentAddress(hex: entry.authorizedBy.text)
            events.append(
                .write(
                    entry, explanation: Self.explain(entry, fold: fold), governedBy: governing,
                    unauthorized: unauthorized.contains(entry.sequence)))
        }
        self.events = events.enumerated().sorted { a, b in
            (a.element.time, a.element.rank, a.offset) < (b.element.time, b.element.rank, b.offset)
        }.map(\.element)
        intended = DeviceFold.evaluate(facts, revocations: revocations, redemptions: redemptions, on: binding, at: now)
        restrictions = Self.restrictions(
            on: binding, facts: facts, revocations: revocations, redemptions: redemptions, at: now)
        lastWritten = entries.last { $0.succeeded }.map { DeviceBits(caseOpen: $0.caseOpen, banned: $0.banned) }
        var users: [WireString] = []
        for mandate in mandates where !users.contains(mandate.userKey) { users.append(mandate.userKey) }
        // A recovery moved the grantee's mandate here (F12, docs/FORMAT.md "Grants and redemptions").
        for effect in redemptions where effect.toBinding == binding && !users.contains(effect.grantee) {
            users.append(effect.grantee)
        }
        self.users = users
    }

    /// The restrictions of the bans that took effect on `binding`, each followed where the recoveries moved it:
    /// a recovery is not the end of a ban, which goes on on the new binding (as the DSA export joins it,
    /// `Restriction.joinedAcrossRecoveries`). `facts` hold every verdict that may fold on `binding`, so they hold
    /// the moved ban's case wherever it folds later.
    static func restrictions(
        on binding: WireString, facts: [VerdictFact], revocations: [DesignationRevocation.Effect],
        redemptions: [GrantRedemption.Effect], at now: Instant
    ) -> [ContentAddress: Restriction] {
        func on(_ target: WireString) -> [Restriction] {
            Restriction.all(facts, revocations: revocations, redemptions: redemptions, on: target, upTo: now)
        }
        let own = on(binding)
        // The bindings recoveries moved something to from `binding`, directly or through others.
        var reached: [WireString] = []
        var pending = [binding]
        while let next = pending.popLast() {
            for effect in redemptions where effect.fromBinding == next {
                guard let to = effect.toBinding, to != binding, !reached.contains(to) else { continue }
                reached.append(to)
                pending.append(to)
            }
        }
        let owned = Set(own.map(\.ban.ref))
        let elsewhere = reached.flatMap(on).filter { owned.contains($0.ban.ref) }
        var restrictions: [ContentAddress: Restriction] = [:]
        for restriction in Restriction.joinedAcrossRecoveries(own + elsewhere) {
            restrictions[restriction.ban.ref] = restriction
        }
        return restrictions
    }

    /// Why the rules gave a write its bits, in plain words.
    static func explain(_ entry: WriteLogEntry, fold: DeviceFold.Result) -> String {
        let requested = DeviceBits(caseOpen: entry.caseOpen, banned: entry.banned)
        var reason: String
        if let ban = fold.governingBan {
            reason = "a ban in force (case \(ban.caseId) of \(ban.authority))"
        } else if let open = fold.openCases.last {
            reason = "an open case (case \(open.caseId) of \(open.authority))"
        } else if fold.authorizedBy.hasPrefix(GrantRedemption.labelPrefix) {
            reason = "the authority's unban grant, redeemed (\(fold.authorizedBy.prefix(27))…)"
        } else if let rule = EvaluatorRule(rawValue: fold.authorizedBy) {
            reason = "rule \(rule.rawValue): " + Self.describe(rule)
        } else {
            reason = "the latest decision (\(fold.authorizedBy.prefix(12))…)"
        }
        if requested != fold.bits {
            reason += "; the rules give \(Self.words(fold.bits)) at this time, not what was written"
        }
        return
            "\(Self.words(requested).prefix(1).uppercased())\(Self.words(requested).dropFirst()), because of \(reason)."
    }

    static func describe(_ rule: EvaluatorRule) -> String {
        switch rule {
        case .expiry: "the ban that last applied has expired"
        case .reconciliation: "no verdict applies, so the device is set clear"
        case .decisionDeadlineDefault: "an open case passed its decision deadline without a decision and is dismissed"
        case .designationRevocation: "the authority's designation was revoked, so its verdicts no longer apply"
        }
    }

    /// The two bits in words.
    static func words(_ bits: DeviceBits) -> String {
        switch (bits.banned, bits.caseOpen) {
        case (true, true): "banned, with a case open"
        case (true, false): "banned"
        case (false, true): "a case open"
        case (false, false): "clear"
        }
    }
}
