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
    /// effect: the fold (``DeviceFold``) evaluated at every instant where its answer can change. With
    /// `redemptions`, `facts` may hold the verdicts of every binding a recovery moves into `binding`
    /// (``GrantRedemption``); an unban ends a restriction at its redemption.
    public static func all(
        _ facts: [VerdictFact], revocations: [DesignationRevocation.Effect] = [],
        redemptions: [GrantRedemption.Effect] = [], on binding: WireString? = nil, upTo time: Instant
    ) -> [Restriction] {
        var instants: Set<Instant> = Set(redemptions.map(\.redeemedAt).filter { $0 <= time } + [time])
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
            let result = DeviceFold.evaluate(
                facts, revocations: revocations, redemptions: redemptions, on: binding, at: instant)
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

    /// One restriction per ban across bindings: a recovery moves a ban to the reinstalled app's binding, where
    /// it goes on — so it started when it first took effect, and ended where it ended last.
    public static func joinedAcrossRecoveries(_ restrictions: [Restriction]) -> [Restriction] {
        var order: [ContentAddress] = []
        var byBan: [ContentAddress: [Restriction]] = [:]
        for restriction in restrictions {
            if byBan[restriction.ban.ref] == nil { order.append(restriction.ban.ref) }
            byBan[restriction.ban.ref, default: []].append(restriction)
        }
        return order.map { ref in
            let parts = byBan[ref]!.sorted { $0.startedAt < $1.startedAt }
            let last = parts.last!
            return Restriction(
                ban: parts[0].ban, startedAt: parts[0].startedAt, endedAt: last.endedAt, endedBy: last.endedBy)
        }
    }
}
