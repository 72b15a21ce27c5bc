/// A ban that took effect on a device binding, as the fold executed it: when it took effect and when it
/// ended — the restriction a statement of reasons reports (docs/DSA.md). A ban that never took effect (late
/// in a defaulted case, ended before it began by a reversal, voided by a revocation) is no restriction.
public struct Restriction: Sendable, Equatable {
    public let ban: VerdictFact
    /// When it took effect (its `executeAfter`, once received).
    public let startedAt: Instant
    /// When it ended — expiry, reversal, a later ban of its case, revocation — or nil while it is in force.
    public let endedAt: Instant?
    /// What governed the binding from the end on (`expiry`, a dismissal's ref, `designation-revocation`, …).
    public let endedBy: String?

    /// The restrictions `facts` and `revocations` make on one binding up to `time`, in the order they took
    /// effect: the fold (``DeviceFold``) evaluated at every instant where its answer can change.
    public static func all(
        _ facts: [VerdictFact], revocations: [DesignationRevocation.Effect] = [], upTo time: Instant
    ) -> [Restriction] {
        var instants: Set<Instant> = [time]
        for fact in facts {
            for instant in [fact.receivedAt, fact.decidedAt, fact.executeAfter, fact.banExpires, fact.decisionDeadline]
            {
                if let instant, instant <= time { instants.insert(instant) }
            }
        }
        for revocation in revocations {
            for instant in [revocation.effectiveAt, revocation.determinedAt] where instant <= time {
                instants.insert(instant)
            }
        }
        var started: [(ban: VerdictFact, at: Instant)] = []
        var ended: [ContentAddress: (at: Instant, by: String)] = [:]
        for instant in instants.sorted() {
            let result = DeviceFold.evaluate(facts, revocations: revocations, at: instant)
            let inForce = Set(result.inForceBans.map(\.ref))
            for ban in result.inForceBans where !started.contains(where: { $0.ban.ref == ban.ref }) {
                started.append((ban, instant))
            }
            for (ban, _) in started where !inForce.contains(ban.ref) && ended[ban.ref] == nil {
                ended[ban.ref] = (instant, result.authorizedBy)
            }
        }
        return started.map {
            Restriction(ban: $0.ban, startedAt: $0.at, endedAt: ended[$0.ban.ref]?.at, endedBy: ended[$0.ban.ref]?.by)
        }
    }
}
