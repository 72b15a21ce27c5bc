/// The replay check behind the enforcement profile §11 criterion 4 ("the write log accounts for every call"): each
/// write-log entry's requested bits and `authorizedBy` must be what the rules give for its device binding at its
/// `recordedAt`, from the verdicts the vendor had received by then.
///
/// Failed writes (`outcome` `failed: …`) change nothing on the device, but they were calls to
/// `update_two_bits` all the same, so they must be authorized too.
///
/// Writes the reference backend may legitimately *skip* (a binding whose intended bits already match
/// the device, the different-physical-device case of reference §4.3 step 3) leave no entry, so the
/// replay never asks for a write; it only judges the writes that were made.
public enum WriteReplay {
    /// A write the rules do not explain: what it asked for and what the rules give at its time.
    public struct Mismatch: Sendable {
        public let requested: DeviceBits
        public let intended: DeviceFold.Result
        public let reason: String
    }

    /// The mismatch between `entry` and the rules, or nil when the rules explain it.
    ///
    /// A `recordedAt` in whole seconds — as the reference emits every time (onym-wire §4.5: "nanoseconds
    /// zeroed") — says the write happened somewhere in that second, while verdict times may carry fractions:
    /// the write is explained when the rules give exactly its bits and `authorizedBy` at its second's start or
    /// at any instant inside that second where their answer changes (docs/DECISIONS.md, "A write's second").
    /// A mismatch is reported as the rules stand at the second's start.
    ///
    /// `redemptions` are the grants redeemed so far (``GrantRedemption``): `facts` then holds the verdicts
    /// of every binding that may move into the entry's (``GrantRedemption/sources(of:_:)``).
    public static func check(
        _ entry: WriteLogEntry, facts: [VerdictFact], revocations: [DesignationRevocation.Effect] = [],
        redemptions: [GrantRedemption.Effect] = []
    ) -> Mismatch? {
        let rules = Rules(facts: facts, revocations: revocations, redemptions: redemptions)
        let mismatch = check(entry, at: entry.recordedAt, rules)
        guard mismatch != nil, entry.recordedAt.nanoseconds == 0 else { return mismatch }
        for instant in changes(within: entry.recordedAt.seconds, facts: facts, revocations: revocations)
            + changes(within: entry.recordedAt.seconds, redemptions: redemptions)
        where check(entry, at: instant, rules) == nil {
            return nil
        }
        return mismatch
    }

    /// What a write is judged against.
    private struct Rules {
        let facts: [VerdictFact]
        let revocations: [DesignationRevocation.Effect]
        let redemptions: [GrantRedemption.Effect]
    }

    /// The redemption instants strictly inside second `second`.
    static func changes(within second: Int64, redemptions: [GrantRedemption.Effect]) -> [Instant] {
        redemptions.map(\.redeemedAt).filter { $0.seconds == second && $0.nanoseconds > 0 }
    }

    /// The instants strictly inside second `second` at which a fact or revocation may change the answer.
    static func changes(within second: Int64, facts: [VerdictFact], revocations: [DesignationRevocation.Effect])
        -> [Instant]
    {
        var instants: Set<Instant> = []
        func note(_ instant: Instant?) {
            if let instant, instant.seconds == second, instant.nanoseconds > 0 { instants.insert(instant) }
        }
        for fact in facts {
            for instant in [fact.receivedAt, fact.decidedAt, fact.executeAfter, fact.banExpires, fact.decisionDeadline]
            {
                note(instant)
            }
        }
        for revocation in revocations {
            note(revocation.effectiveAt)
            note(revocation.determinedAt)
        }
        return instants.sorted()
    }

    private static func check(_ entry: WriteLogEntry, at time: Instant, _ rules: Rules) -> Mismatch? {
        let intended = DeviceFold.evaluate(
            rules.facts, revocations: rules.revocations, redemptions: rules.redemptions, on: entry.deviceBinding,
            at: time)
        let requested = DeviceBits(caseOpen: entry.caseOpen, banned: entry.banned)
        if requested != intended.bits {
            return Mismatch(
                requested: requested, intended: intended,
                reason:
                    "requested bits \(requested) at \(entry.recordedAt.rfc3339) but the rules give \(intended.bits) "
                    + "(governed by \(intended.authorizedBy))")
        }
        if entry.authorizedBy != WireString(intended.authorizedBy) {
            return Mismatch(
                requested: requested, intended: intended,
                reason:
                    "authorizedBy \(entry.authorizedBy) but the write at \(entry.recordedAt.rfc3339) is governed by "
                    + intended.authorizedBy)
        }
        return nil
    }

    /// Why `entry` is not explained by the rules, or nil when it is.
    public static func unexplained(
        _ entry: WriteLogEntry, facts: [VerdictFact], revocations: [DesignationRevocation.Effect] = []
    ) -> String? {
        check(entry, facts: facts, revocations: revocations)?.reason
    }
}
