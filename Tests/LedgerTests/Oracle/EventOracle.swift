/// An independent model of the fold (docs/DECISIONS.md "The fold, rule by rule", F1–F11; docs/VERIFY.md
/// "The replay, step by step"), written from the docs and onym-wire alone: it reads the raw bytes of each
/// verdict, its receipt and its consented manifest (``OracleVerdict``, ``OracleReceipt``) and answers by
/// running a discrete-event simulation of the binding's history as it is known at the asked instant —
/// events in a priority queue, each handled by the case it touches — rather than sorting and folding.
struct EventOracle {
    struct Delivery {
        var verdict: [UInt8]
        var receipt: [UInt8]
        var manifest: [UInt8]
    }

    /// A determined designation revocation, by its effect times (docs/DECISIONS.md "Designation
    /// revocation": "From the effective time (once determined)").
    struct Revocation {
        var authority: String
        var effective: String
        var determined: String
    }

    /// The bits and what a write of them is logged against (F11), with the governing ban and the
    /// verdicts that opened the open cases, so that a disagreement shows its reason.
    struct Answer: Equatable, CustomStringConvertible {
        var caseOpen: Bool
        var banned: Bool
        var authorizedBy: String
        var governingBan: String?
        /// Refs of the verdicts that opened the open cases, sorted.
        var openedBy: [String]

        /// `bit1 bit0`: banned, case-open (onym-wire §4.6).
        var bits: String { "\(banned ? 1 : 0)\(caseOpen ? 1 : 0)" }

        var description: String {
            "\(bits) by \(authorizedBy) (ban \(governingBan ?? "-"), open \(openedBy.joined(separator: ",")))"
        }
    }

    private let known: [String: (verdict: OracleVerdict, firstReceipt: OracleInstant)]
    private let revocations: [(authority: String, effective: OracleInstant, determined: OracleInstant)]
    /// Each delivery's verdict ref, as this oracle computes it.
    let refs: [String]
    /// Every instant at which the answer can change: decisions, receipts, executions, expiries, decision
    /// deadlines, revocations' effective and determination times.
    let changeInstants: [OracleInstant]

    init(deliveries: [Delivery], revocations: [Revocation]) throws {
        var known: [String: (verdict: OracleVerdict, firstReceipt: OracleInstant)] = [:]
        var refs: [String] = []
        var instants: Set<OracleInstant> = []
        for delivery in deliveries {
            let verdict = try OracleVerdict(verdict: delivery.verdict, manifest: delivery.manifest)
            let receipt = try OracleReceipt(delivery.receipt)
            guard receipt.verdictRef == verdict.ref else {
                throw OracleJSON.Unreadable(
                    description: "the receipt names \(receipt.verdictRef), the verdict's bytes hash to \(verdict.ref)")
            }
            refs.append(verdict.ref)
            // F1: "a verdict delivered twice counts once (its first receipt)".
            if let earlier = known[verdict.ref], earlier.firstReceipt <= receipt.receivedAt { continue }
            known[verdict.ref] = (verdict, receipt.receivedAt)
            instants.formUnion(
                [verdict.decidedAt, receipt.receivedAt, verdict.executeAfter, verdict.banExpires, verdict.deadline]
                    .compactMap { $0 })
        }
        self.known = known
        self.refs = refs
        self.revocations = try revocations.map {
            ($0.authority, try OracleTime.parse($0.effective), try OracleTime.parse($0.determined))
        }
        for revocation in self.revocations { instants.formUnion([revocation.effective, revocation.determined]) }
        changeInstants = instants.sorted()
    }

    /// What the rules give at `now`.
    func answer(at now: OracleInstant) -> Answer { answers(at: now).answer }

    /// A reading of the docs this oracle does not take, where the docs can be read two ways (reported to
    /// the lead, to be settled in docs/DECISIONS.md).
    struct OpenQuestion {
        var question: String
        /// The answer under the other reading.
        var otherAnswer: Answer
    }

    /// What the rules give at `now`, and the other reading's answer where an open question decides it.
    func answers(at now: OracleInstant) -> (answer: Answer, openQuestion: OpenQuestion?) {
        var simulation = Simulation(now: now)
        // Revocations are known once determined; the revoked authority's verdicts decided at or after
        // the effective time are not executed at all (F2).
        var revokedFrom: [String: OracleInstant] = [:]
        for revocation in revocations where revocation.determined <= now {
            revokedFrom[revocation.authority] = min(
                revokedFrom[revocation.authority] ?? revocation.effective, revocation.effective)
            simulation.schedule(.revocation(authority: revocation.authority), at: revocation.effective)
        }
        // F1: a verdict counts from its first receipt, whatever its signed `decidedAt`.
        for (verdict, firstReceipt) in known.values where firstReceipt <= now {
            if let from = revokedFrom[verdict.authority], verdict.decidedAt >= from { continue }
            simulation.schedule(
                .decision(verdict), at: verdict.decidedAt,
                order: DecisionOrder(verdict: verdict, firstReceipt: firstReceipt))
        }
        simulation.run()
        let answer = simulation.answer(lastStep: simulation.lastStep)
        let other = simulation.answer(lastStep: simulation.lastStepIfOnlyVisibleEndsAreSteps)
        guard other != answer else { return (answer, nil) }
        return (
            answer,
            OpenQuestion(
                question: """
                    Is a revocation that ends only bans still waiting for their executeAfter a step? F8 says the \
                    revocation ends them and F10 labels a revocation that "closed or ended something" (this \
                    oracle: yes); DECISIONS also says "a revocation of an authority with nothing open" is not a \
                    step (the other reading: no)
                    """, otherAnswer: other)
        )
    }
}

/// F3: signed `decidedAt` (as an instant), then open-case < ban < dismiss, then first receipt, then ref.
private struct DecisionOrder: Comparable {
    var decidedAt: OracleInstant
    var rank: Int
    var firstReceipt: OracleInstant
    var ref: String

    init(verdict: OracleVerdict, firstReceipt: OracleInstant) {
        decidedAt = verdict.decidedAt
        rank = verdict.disposition.rawValue
        self.firstReceipt = firstReceipt
        ref = verdict.ref
    }

    static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.decidedAt, lhs.rank, lhs.firstReceipt) < (rhs.decidedAt, rhs.rank, rhs.firstReceipt)
            || ((lhs.decidedAt, lhs.rank, lhs.firstReceipt) == (rhs.decidedAt, rhs.rank, rhs.firstReceipt)
                && Array(lhs.ref.utf8).lexicographicallyPrecedes(Array(rhs.ref.utf8)))
    }
}

/// One run of a binding's known history up to `now`.
private struct Simulation {
    enum Kind {
        case decision(OracleVerdict)
        case banTakesEffect(ref: String)
        case banExpires(ref: String)
        case deadlinePasses(caseName: String, period: Int)
        case revocation(authority: String)

        /// F9: "verdict decisions (in decision order), bans taking effect, bans expiring, deadline
        /// defaults, revocations".
        var phase: Int {
            switch self {
            case .decision: 0
            case .banTakesEffect: 1
            case .banExpires: 2
            case .deadlinePasses: 3
            case .revocation: 4
            }
        }
    }

    struct Event {
        /// Its place in the queue.
        var at: OracleInstant
        /// When it happens: `at`, except a ban decided after its own `executeAfter` (within the
        /// validator's tolerance), which is queued at its decision but in force from `executeAfter`.
        var happens: OracleInstant
        var order: DecisionOrder?
        var sequence: Int
        var kind: Kind

        func comesBefore(_ other: Event) -> Bool {
            if at != other.at { return at < other.at }
            if kind.phase != other.kind.phase { return kind.phase < other.kind.phase }
            if let order, let otherOrder = other.order, order != otherOrder { return order < otherOrder }
            return sequence < other.sequence
        }
    }

    enum CaseStatus: Equatable {
        case untouched
        /// Opened and not yet decided: a ban or dismissal decided after `deadline` is late (F5, F7).
        case awaitingDecision(period: Int)
        /// Decided in time, then opened again (F7): the case-open mark only.
        case reopened(period: Int)
        /// Decided in time; an ordinary case from then on.
        case settled
        /// Defaulted at its deadline: nothing later executes (F7).
        case defaulted
        /// Closed by a revocation of its authority (F10).
        case revoked
    }

    struct CaseState {
        var status = CaseStatus.untouched
        var periods = 0
        var opener: DecisionOrder?
        var deadline: OracleInstant?

        var isOpen: Bool {
            switch status {
            case .awaitingDecision, .reopened: true
            default: false
            }
        }
    }

    enum BanStage { case waiting, inForce, ended }

    struct Ban {
        var order: DecisionOrder
        var caseName: String
        var authority: String
        var survivingForum: Bool
        var banExpires: OracleInstant?
        var stage = BanStage.waiting
    }

    let now: OracleInstant
    private var queue: [Event] = []  // a binary min-heap by `comesBefore`
    private var sequence = 0
    private var cases: [String: CaseState] = [:]
    private var bans: [String: Ban] = [:]
    /// F11's "latest step": what the last change was logged against.
    private(set) var lastStep: String?
    /// The same under the reading this oracle does not take: a revocation that ended only waiting bans
    /// (nothing open, nothing in force) is no step.
    private(set) var lastStepIfOnlyVisibleEndsAreSteps: String?

    private mutating func step(_ label: String) {
        lastStep = label
        lastStepIfOnlyVisibleEndsAreSteps = label
    }

    init(now: OracleInstant) { self.now = now }

    mutating func schedule(_ kind: Kind, at: OracleInstant, happens: OracleInstant? = nil, order: DecisionOrder? = nil)
    {
        sequence += 1
        queue.append(Event(at: at, happens: happens ?? at, order: order, sequence: sequence, kind: kind))
        var child = queue.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard queue[child].comesBefore(queue[parent]) else { break }
            queue.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func next() -> Event? {
        guard !queue.isEmpty else { return nil }
        queue.swapAt(0, queue.count - 1)
        let first = queue.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < queue.count, queue[left].comesBefore(queue[smallest]) { smallest = left }
            if right < queue.count, queue[right].comesBefore(queue[smallest]) { smallest = right }
            guard smallest != parent else { break }
            queue.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }

    /// Runs every event: a known verdict's decision always (F1 — even when signed after `now`, it then
    /// comes after everything that has happened), anything else only if it has happened by `now`.
    mutating func run() {
        while let event = next() {
            switch event.kind {
            case .decision(let verdict): decide(verdict, event.order!)
            default:
                guard event.happens <= now else { continue }
                switch event.kind {
                case .banTakesEffect(let ref): banTakesEffect(ref)
                case .banExpires(let ref): banExpires(ref)
                case .deadlinePasses(let caseName, let period): deadlinePasses(caseName, period)
                case .revocation(let authority): revoke(authority)
                case .decision: break
                }
            }
        }
    }

    // MARK: - The rules, one per event

    private mutating func decide(_ verdict: OracleVerdict, _ order: DecisionOrder) {
        let caseName = verdict.authority + "\u{0}" + verdict.caseId
        var state = cases[caseName] ?? CaseState()
        defer { cases[caseName] = state }
        if verdict.disposition == .openCase {
            // F4: the first open-case verdict of an open period fixes the deadline; later ones change
            // nothing. F7: a decided case reopens; a defaulted one does not.
            let period = state.periods + 1
            switch state.status {
            case .untouched: state.status = .awaitingDecision(period: period)
            case .settled: state.status = .reopened(period: period)
            case .awaitingDecision, .reopened, .defaulted, .revoked: return
            }
            state.periods = period
            state.opener = order
            state.deadline = verdict.deadline!
            schedule(.deadlinePasses(caseName: caseName, period: period), at: verdict.deadline!)
            step(verdict.ref)
            return
        }
        switch state.status {
        case .untouched, .settled, .reopened: break
        // F5: decided by the deadline (at the deadline instant is in time); F7: a later one is late.
        case .awaitingDecision: guard verdict.decidedAt <= state.deadline! else { return }
        case .defaulted, .revoked: return
        }
        state.status = .settled
        state.opener = nil
        step(verdict.ref)
        if verdict.disposition == .dismiss {
            // F8: a dismissal ends every ban of its case decided before it.
            for (ref, ban) in bans where ban.caseName == caseName && ban.stage != .ended { bans[ref]!.stage = .ended }
        } else {
            bans[verdict.ref] = Ban(
                order: order, caseName: caseName, authority: verdict.authority,
                survivingForum: verdict.survivingForum, banExpires: verdict.banExpires)
            let executeAfter = verdict.executeAfter!
            schedule(
                .banTakesEffect(ref: verdict.ref), at: max(executeAfter, verdict.decidedAt), happens: executeAfter,
                order: order)
        }
    }

    private mutating func banTakesEffect(_ ref: String) {
        guard let ban = bans[ref], ban.stage == .waiting else { return }
        // F8: a ban ends when a ban of its case decided after it takes effect.
        for (other, earlier) in bans
        where earlier.caseName == ban.caseName && earlier.stage != .ended && earlier.order < ban.order {
            bans[other]!.stage = .ended
        }
        bans[ref]!.stage = .inForce
        if let expires = ban.banExpires { schedule(.banExpires(ref: ref), at: expires) }
        step(ref)
    }

    private mutating func banExpires(_ ref: String) {
        guard bans[ref]?.stage == .inForce else { return }  // an ended ban's expiry is not a step
        bans[ref]!.stage = .ended
        step("expiry")
    }

    private mutating func deadlinePasses(_ caseName: String, _ period: Int) {
        guard var state = cases[caseName] else { return }
        switch state.status {
        case .awaitingDecision(period): state.status = .defaulted  // F6
        case .reopened(period): state.status = .settled  // F7: clears only the case-open mark
        default: return
        }
        state.opener = nil
        cases[caseName] = state
        step("decision-deadline-default")
    }

    private mutating func revoke(_ authority: String) {
        // F10: open cases close; bans end unless their manifest names an external appellate forum.
        var closedOrEndedInForce = false
        var endedWaiting = false
        for (caseName, state) in cases where state.isOpen && caseName.hasPrefix(authority + "\u{0}") {
            cases[caseName]!.status = .revoked
            cases[caseName]!.opener = nil
            closedOrEndedInForce = true
        }
        for (ref, ban) in bans where ban.authority == authority && ban.stage != .ended && !ban.survivingForum {
            if ban.stage == .inForce { closedOrEndedInForce = true } else { endedWaiting = true }
            bans[ref]!.stage = .ended
        }
        if closedOrEndedInForce {
            step("designation-revocation")
        } else if endedWaiting {
            lastStep = "designation-revocation"
        }
    }

    /// F11, with `lastStep` as the latest step.
    func answer(lastStep: String?) -> EventOracle.Answer {
        let governing = bans.values.filter { $0.stage == .inForce }.map(\.order).max()
        let openers = cases.values.filter(\.isOpen).compactMap(\.opener)
        return EventOracle.Answer(
            caseOpen: !openers.isEmpty, banned: governing != nil,
            authorizedBy: governing?.ref ?? openers.max()?.ref ?? lastStep ?? "reconciliation",
            governingBan: governing?.ref, openedBy: openers.map(\.ref).sorted())
    }
}
