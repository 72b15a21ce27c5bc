/// Redeemed grants for a generated scenario (rule F12): recoveries and unbans at the instants where the
/// order matters — a ban's decision, its `executeAfter` and expiry, a second either side, another
/// verdict's decision or receipt, a revocation's effective time — and at random instants.
///
/// Only redemptions within the rules reach the fold (docs/FORMAT.md "Grants and redemptions"), so each
/// one is: by a grantee a verdict of its case accuses (for an unban, a ban), received by `redeemedAt` on
/// `fromBinding` as the earlier recoveries left it; a grant of its own (single use); a recovery to the
/// other binding, never two recoveries of one case at one instant.
extension FoldScenarioGenerator {
    /// One of a scenario's verdicts, with its instants read back from its signed text.
    private struct Placed {
        var spec: FoldScenario.VerdictSpec
        var decided: OracleInstant
        var received: OracleInstant
        var starts: OracleInstant?
        var expires: OracleInstant?

        init(_ spec: FoldScenario.VerdictSpec) {
            self.spec = spec
            decided = try! OracleTime.parse(spec.decided)
            received = try! OracleTime.parse(spec.received)
            let terms = spec.disposition == "ban" ? FoldScenario.banTerms(spec) : nil
            starts = terms.map { try! OracleTime.parse($0.executeAfter) }
            expires = terms?.banExpires.map { try! OracleTime.parse($0) }
        }
    }

    mutating func redemptions(
        _ verdicts: [FoldScenario.VerdictSpec], moments: [OracleInstant], revocations: [FoldScenario.RevocationSpec]
    ) -> [FoldScenario.RedemptionSpec] {
        let placed = verdicts.map(Placed.init)
        var redemptions: [FoldScenario.RedemptionSpec] = []
        var recoveries: [(caseId: String, authority: String, from: String, to: String, at: OracleInstant)] = []
        var grants: Set<String> = []
        for _ in 0..<(1 + below(3)) {
            let unban = chance(60)
            let anchors = placed.filter { !unban || $0.spec.disposition == "ban" }
            guard !anchors.isEmpty else { continue }
            let anchor = pick(anchors)
            let at = redemptionInstant(near: anchor, placed, moments: moments, revocations: revocations)
            // Where each verdict of the case is at `at`: the recoveries redeemed by then, in time order.
            func binding(_ verdict: Placed) -> String {
                var binding = verdict.spec.binding ?? "1"
                for recovery in recoveries.sorted(by: { $0.at < $1.at })
                where recovery.at <= at && recovery.caseId == verdict.spec.caseId
                    && recovery.authority == verdict.spec.authority && recovery.from == binding
                {
                    binding = recovery.to
                }
                return binding
            }
            let qualifying = placed.filter {
                $0.spec.caseId == anchor.spec.caseId && $0.spec.authority == anchor.spec.authority
                    && $0.received <= at && (!unban || $0.spec.disposition == "ban")
            }
            guard !qualifying.isEmpty else { continue }
            let accusing = pick(qualifying)
            let from = binding(accusing)
            let to = from == "1" ? "2" : "1"
            if !unban,
                recoveries.contains(where: {
                    $0.caseId == accusing.spec.caseId && $0.authority == accusing.spec.authority && $0.at == at
                })
            {
                continue
            }
            let issued = at.adding(seconds: chance(10) ? Int64(below(301)) : -Int64(below(72 * 3600)))
            let spec = FoldScenario.RedemptionSpec(
                id: "g\(redemptions.count)", grant: unban ? "unban" : "recovery", authority: accusing.spec.authority,
                caseId: accusing.spec.caseId, grantee: accusing.spec.accused, issued: style().text(issued),
                redeemed: style().text(at), from: from == "1" ? nil : from, to: unban ? nil : to)
            // Single use: a second redemption of one grant is outside the rules.
            guard
                grants.insert("\(spec.grant) \(spec.authority) \(spec.caseId) \(spec.grantee ?? "1") \(issued)")
                    .inserted
            else { continue }
            if !unban { recoveries.append((spec.caseId, spec.authority, from, to, at)) }
            redemptions.append(spec)
        }
        return redemptions
    }

    /// An instant where a redemption's place among the case's events matters, or any instant.
    private mutating func redemptionInstant(
        near anchor: Placed, _ placed: [Placed], moments: [OracleInstant], revocations: [FoldScenario.RevocationSpec]
    ) -> OracleInstant {
        let nudge = pick([-1, 0, 0, 0, 1, 3600 * Int64(1 + below(48))])
        switch below(10) {
        case 0..<2: return anchor.decided.adding(seconds: nudge)
        case 2: return anchor.received.adding(seconds: nudge)
        case 3 where anchor.starts != nil: return anchor.starts!.adding(seconds: nudge)
        case 4 where anchor.expires != nil: return anchor.expires!.adding(seconds: nudge)
        case 5 where !revocations.isEmpty:
            return try! OracleTime.parse(pick(revocations).effective).adding(seconds: pick([-1, 0, 0, 1]))
        case 5..<8: return pick(moments).adding(seconds: pick([-1, 0, 0, 1]))
        case 8: return pick(placed).decided.adding(seconds: pick([-1, 0, 1]))
        default: return instant(within: 10)
        }
    }
}
