public import LedgerFormat

/// One authority's record in the ledger: its manifests and classes, its verdicts by class and disposition,
/// how long its cases took against their deadlines, its reversals, and whether its designation was revoked.
public struct AuthorityRecord: Sendable {
    /// One case: when it opened, when (if) it was decided, and its deadline.
    public struct Case: Sendable {
        public let caseId: WireString
        public let binding: WireString
        public let classId: WireString
        public let opened: Verdict?
        public let decided: Verdict?
        public let deadline: Instant?

        /// The decision came after the deadline.
        public var late: Bool {
            guard let decided, let deadline else { return false }
            return decided.decidedAt > deadline
        }
        /// Days from opening to decision (fractional), nil while undecided or never opened.
        public var daysToDecision: Double? {
            guard let opened, let decided else { return nil }
            return Double(decided.decidedAt.seconds - opened.decidedAt.seconds) / 86_400
        }
    }

    public let componentId: WireString
    public let manifests: [AuthorityManifest]
    public let verdicts: [Verdict]
    public let cases: [Case]
    public let revocations: [RevocationDetermination]
    public let compromiseReports: [CompromiseReport]

    /// Verdict counts by class, then by disposition.
    public var countsByClass: [(classId: WireString, counts: [Verdict.Disposition: Int])] {
        var table: [WireString: [Verdict.Disposition: Int]] = [:]
        for verdict in verdicts { table[verdict.classId, default: [:]][verdict.disposition, default: 0] += 1 }
        return table.keys.sorted().map { ($0, table[$0]!) }
    }

    /// Cases whose open-case deadline passed (by `now`) with no decision made by then.
    public func deadlineDefaults(at now: Instant) -> [Case] {
        cases.filter { item in
            guard let deadline = item.deadline, deadline <= now else { return false }
            return item.decided.map { $0.decidedAt > deadline } ?? true
        }
    }

    /// Bans this authority later dismissed (``Reversal``).
    public var reversals: [Reversal] { Reversal.all(in: verdicts) }

    /// Every authority the ledger names (in a manifest or a verdict), each with its record.
    static func all(_ contents: LedgerContents, facts: [ContentAddress: VerdictFact]) -> [AuthorityRecord] {
        let manifests = contents.manifests
        let verdicts = contents.verdicts
        var ids = Set(manifests.map(\.componentId))
        ids.formUnion(verdicts.map(\.authority))
        return ids.sorted().map { id in
            let own = verdicts.filter { $0.authority == id }
            var cases: [Case] = []
            for (caseId, group) in Dictionary(grouping: own, by: \.caseId).sorted(by: { $0.key < $1.key }) {
                let ordered = group.sorted { $0.decidedAt < $1.decidedAt }
                let opened = ordered.first { $0.disposition == .openCase }
                let decided = ordered.first { $0.disposition != .openCase }
                let first = ordered[0]
                cases.append(
                    Case(
                        caseId: caseId, binding: first.deviceBinding, classId: first.classId, opened: opened,
                        decided: decided, deadline: opened.flatMap { facts[$0.ref]?.decisionDeadline }))
            }
            return AuthorityRecord(
                componentId: id, manifests: manifests.filter { $0.componentId == id }, verdicts: own, cases: cases,
                revocations: contents.revocations.filter { $0.authority == id },
                compromiseReports: contents.compromiseReports.filter { $0.authority == id })
        }
    }
}
