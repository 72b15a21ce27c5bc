@testable import LedgerFormat
import LedgerStore

/// A second evaluator for one device binding, deliberately shaped unlike ``DeviceFold``: an event
/// queue. It is written from the rules (onym-wire §4.2–4.3 and §9, profile §6, docs/DECISIONS.md
/// F1–F11), not from the fold: the fold sorts each case's verdicts and settles every ban in closed
/// form; the oracle plays the binding's time line forward — decisions, bans starting and expiring,
/// deadlines, revocations — and keeps the marks as it goes.
struct EventOracle {
    struct Answer: Equatable, CustomStringConvertible {
        var bits: DeviceBits
        var authorizedBy: String
        var governingBan: ContentAddress?
        var openedBy: [ContentAddress]

        var description: String {
            "bits \(bits) by \(authorizedBy.prefix(12)) ban \(governingBan?.hex.prefix(8) ?? "-") open \(openedBy.map { $0.hex.prefix(8) })"
        }
    }

    private enum Event {
        case decision(Int)
        case banStarts(Int)
        case banExpires(Int)
        case deadline(opener: Int)
        case revocation(String)

        /// Same-instant order: decisions, starts, expiries, deadlines, revocations (F9).
        var rank: Int {
            switch self {
            case .decision: 0
            case .banStarts: 1
            case .banExpires: 2
            case .deadline: 3
            case .revocation: 4
            }
        }

        var sub: Int {
            switch self {
            case .decision(let i), .banStarts(let i), .banExpires(let i), .deadline(let i): i
            case .revocation: 0
            }
        }
    }

    private struct Queued {
        let at: Instant
        let event: Event
        func comesBefore(_ other: Queued) -> Bool {
            (at, event.rank, event.sub) < (other.at, other.event.rank, other.event.sub)
        }
    }

    private enum Status: Equatable {
        case untouched
        case open(opener: Int, reopened: Bool)
        case closed  // decided, or closed by a reopened case's deadline or a revocation
        case defaulted  // never decided in time: nothing later in it executes
        /// Still open at `now`, its deadline still ahead, but a verdict received already was decided after
        /// that deadline: it and everything after it will not execute (a verdict counts from its receipt).
        case overdue(opener: Int)
    }

    private struct CaseState {
        var status = Status.untouched
        var activeBan: Int?
        /// The decision-order index of the latest dismissal decided or ban started in this case: a
        /// ban decided before it can no longer start.
        var latestBlocking = -1
    }

    static func answer(
        _ facts: [VerdictFact], revocations: [DesignationRevocation.Effect], at now: Instant
    ) -> Answer {
        // What the vendor knows at `now`: revocations determined and in effect; verdicts received and decided.
        var revokedFrom: [String: Instant] = [:]
        for revocation in revocations where revocation.determinedAt <= now && revocation.effectiveAt <= now {
            if let earlier = revokedFrom[revocation.authority], earlier <= revocation.effectiveAt { continue }
            revokedFrom[revocation.authority] = revocation.effectiveAt
        }
        var known: [ContentAddress: VerdictFact] = [:]
        for fact in facts {
            guard fact.receivedAt <= now else { continue }  // known from its receipt (F1)
            if let from = revokedFrom[fact.authority], !(fact.decidedAt < from) { continue }
            if let other = known[fact.ref], other.receivedAt <= fact.receivedAt { continue }
            known[fact.ref] = fact
        }
        let verdicts = known.values.sorted { a, b in
            let rank: (VerdictFact) -> Int = { f in
                switch f.disposition {
                case .openCase: 0
                case .ban: 1
                case .dismiss: 2
                }
            }
            return (a.decidedAt, rank(a), a.receivedAt, a.ref.hex) < (b.decidedAt, rank(b), b.receivedAt, b.ref.hex)
        }

        var queue: [Queued] = []
        func push(_ at: Instant, _ event: Event) {
            // Received verdicts may be signed up to 300 s ahead of `now`: their decisions, and the deadlines
            // that tell whether they came in time, still play; nothing else after `now` does.
            switch event {
            case .decision, .deadline: break
            default: guard at <= now else { return }
            }
            let item = Queued(at: at, event: event)
            let index = queue.firstIndex { item.comesBefore($0) } ?? queue.endIndex
            queue.insert(item, at: index)
        }
        for index in verdicts.indices { push(verdicts[index].decidedAt, .decision(index)) }
        for (authority, from) in revokedFrom { push(from, .revocation(authority)) }

        func caseName(_ fact: VerdictFact) -> String { fact.authority + "\u{0}" + fact.caseId }
        var cases: [String: CaseState] = [:]
        var revoked: Set<String> = []
        var label: String?

        while !queue.isEmpty {
            let next = queue.removeFirst()
            switch next.event {
            case .decision(let index):
                let verdict = verdicts[index]
                var state = cases[caseName(verdict)] ?? CaseState()
                if state.status == .defaulted { break }
                if case .overdue = state.status { break }
                label = verdict.ref.hex
                switch verdict.disposition {
                case .openCase:
                    if case .open = state.status { break }
                    state.status = .open(opener: index, reopened: state.status != .untouched)
                    if let deadline = verdict.decisionDeadline { push(deadline, .deadline(opener: index)) }
                case .dismiss:
                    state.status = .closed
                    state.activeBan = nil
                    state.latestBlocking = max(state.latestBlocking, index)
                case .ban:
                    state.status = .closed
                    if let executeAfter = verdict.executeAfter {
                        push(executeAfter > verdict.decidedAt ? executeAfter : verdict.decidedAt, .banStarts(index))
                    }
                }
                cases[caseName(verdict)] = state
            case .banStarts(let index):
                let ban = verdicts[index]
                var state = cases[caseName(ban)]!
                if state.latestBlocking > index { break }
                if revoked.contains(ban.authority) && ban.externalAppellate == nil { break }
                if let expires = ban.banExpires, expires < next.at { break }
                state.activeBan = index
                state.latestBlocking = index
                cases[caseName(ban)] = state
                label = ban.ref.hex
                if let expires = ban.banExpires { push(expires, .banExpires(index)) }
            case .banExpires(let index):
                let ban = verdicts[index]
                if cases[caseName(ban)]?.activeBan == index {
                    cases[caseName(ban)]!.activeBan = nil
                    label = EvaluatorRule.expiry.rawValue
                }
            case .deadline(let opener):
                let name = caseName(verdicts[opener])
                guard case .open(opener, let reopened) = cases[name]!.status else { break }
                if next.at > now {
                    if !reopened { cases[name]!.status = .overdue(opener: opener) }
                    break
                }
                cases[name]!.status = reopened ? .closed : .defaulted
                label = EvaluatorRule.decisionDeadlineDefault.rawValue
            case .revocation(let authority):
                revoked.insert(authority)
                var changed = false
                for (name, state) in cases where name.hasPrefix(authority + "\u{0}") {
                    if case .open = state.status {
                        cases[name]!.status = .closed
                        changed = true
                    }
                    if let ban = state.activeBan, verdicts[ban].externalAppellate == nil {
                        cases[name]!.activeBan = nil
                        changed = true
                    }
                }
                if changed { label = EvaluatorRule.designationRevocation.rawValue }
            }
        }

        let bans = cases.values.compactMap(\.activeBan).sorted()
        let openers = cases.values.compactMap { state -> Int? in
            if case .open(let opener, _) = state.status { return opener }
            if case .overdue(let opener) = state.status { return opener }
            return nil
        }.sorted()
        let authorizedBy =
            bans.last.map { verdicts[$0].ref.hex } ?? openers.last.map { verdicts[$0].ref.hex } ?? label
            ?? EvaluatorRule.reconciliation.rawValue
        return Answer(
            bits: DeviceBits(caseOpen: !openers.isEmpty, banned: !bans.isEmpty), authorizedBy: authorizedBy,
            governingBan: bans.last.map { verdicts[$0].ref }, openedBy: openers.map { verdicts[$0].ref })
    }
}
