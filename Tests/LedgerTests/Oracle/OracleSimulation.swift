/// F3: signed `decidedAt` (as an instant), then open-case < ban < dismiss, then first receipt, then ref.
struct DecisionOrder: Comparable {
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

/// One run of a binding's history as it is known at `now` (``EventOracle``): a priority queue of events in
/// F9's order, and one handler per rule of docs/DECISIONS.md "The fold, rule by rule" — deciding (F4, F5,
/// F7), bans taking effect and expiring (F8), deadline defaults (F6), revocations (F10), unbans (F12) —
/// each keeping the case and ban states it touches and the latest step (F11).
struct OracleSimulation {
    enum Kind {
        case decision(OracleVerdict)
        case banTakesEffect(ref: String)
        case banExpires(ref: String)
        case deadlinePasses(caseName: String, period: Int)
        case revocation(authority: String)
        case unban(caseName: String, grantee: String, label: String)

        /// F9: "verdict decisions (in decision order), bans taking effect, bans expiring, deadline
        /// defaults, revocations"; F12: "At one instant, unban ends come after revocations".
        var phase: Int {
            switch self {
            case .decision: 0
            case .banTakesEffect: 1
            case .banExpires: 2
            case .deadlinePasses: 3
            case .revocation: 4
            case .unban: 5
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
        var accusedKeys: [String]
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

    private mutating func step(_ label: String) { lastStep = label }

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
                case .unban(let caseName, let grantee, let label): unban(caseName, grantee, label)
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
                order: order, caseName: caseName, authority: verdict.authority, accusedKeys: verdict.accusedKeys,
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
        // F10: open cases close; bans end unless their manifest names an external appellate forum. Only closing
        // an open case or ending a ban in force is a step: ending bans still waiting for their executeAfter
        // changes no bit (docs/DECISIONS.md, "A revocation that ends only a pending ban is not a step").
        var closedOrEndedInForce = false
        for (caseName, state) in cases where state.isOpen && caseName.hasPrefix(authority + "\u{0}") {
            cases[caseName]!.status = .revoked
            cases[caseName]!.opener = nil
            closedOrEndedInForce = true
        }
        for (ref, ban) in bans where ban.authority == authority && ban.stage != .ended && !ban.survivingForum {
            if ban.stage == .inForce { closedOrEndedInForce = true }
            bans[ref]!.stage = .ended
        }
        if closedOrEndedInForce { step("designation-revocation") }
    }

    private mutating func unban(_ caseName: String, _ grantee: String, _ label: String) {
        // F12: every ban of the case accusing the grantee decided by now ends (the queue has decided every
        // verdict signed by this instant, and none signed after it); "a pending one never takes effect".
        // As for a revocation, only ending a ban in force is a step.
        var endedInForce = false
        for (ref, ban) in bans
        where ban.caseName == caseName && ban.accusedKeys.contains(grantee) && ban.stage != .ended {
            if ban.stage == .inForce { endedInForce = true }
            bans[ref]!.stage = .ended
        }
        if endedInForce { step(label) }
    }

    /// F11.
    func answer() -> EventOracle.Answer {
        let governing = bans.values.filter { $0.stage == .inForce }.map(\.order).max()
        let openers = cases.values.filter(\.isOpen).compactMap(\.opener)
        return EventOracle.Answer(
            caseOpen: !openers.isEmpty, banned: governing != nil,
            authorizedBy: governing?.ref ?? openers.max()?.ref ?? lastStep ?? "reconciliation",
            governingBan: governing?.ref, openedBy: openers.map(\.ref).sorted())
    }
}
