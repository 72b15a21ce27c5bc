/// An independent model of the fold (docs/DECISIONS.md "The fold, rule by rule", F1–F12; docs/VERIFY.md
/// "The replay, step by step"), written from the docs and onym-wire alone: it reads the raw bytes of each
/// verdict, its receipt and its consented manifest (``OracleVerdict``, ``OracleReceipt``), and of each
/// redeemed grant and its redemption (``OracleRedemption``), and answers by running a discrete-event
/// simulation of the binding's history as it is known at the asked instant — events in a priority queue,
/// each handled by the case it touches — rather than sorting and folding. Recoveries decide which verdicts
/// the binding's simulation holds (where the recoveries redeemed by then put them); unbans are events in it.
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

    /// A redeemed grant: the grant's raw bytes and the vendor's redemption of it (F12).
    struct Redemption {
        var grant: [UInt8]
        var redemption: [UInt8]
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
    /// In redemption order (`redeemedAt`, then `grantRef`): recoveries apply one after another.
    private let redemptions: [OracleRedemption]
    /// Each delivery's verdict ref, as this oracle computes it.
    let refs: [String]
    /// Each redemption's `grantRef`, as this oracle computes it.
    let grantRefs: [String]
    /// Every instant at which the answer can change: decisions, receipts, executions, expiries, decision
    /// deadlines, revocations' effective and determination times, redemptions.
    let changeInstants: [OracleInstant]

    init(deliveries: [Delivery], revocations: [Revocation], redemptions: [Redemption] = []) throws {
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
        let read = try redemptions.map { try OracleRedemption(grant: $0.grant, redemption: $0.redemption) }
        grantRefs = read.map(\.grantRef)
        self.redemptions = read.sorted {
            $0.redeemedAt != $1.redeemedAt
                ? $0.redeemedAt < $1.redeemedAt
                : Array($0.grantRef.utf8).lexicographicallyPrecedes(Array($1.grantRef.utf8))
        }
        instants.formUnion(read.map(\.redeemedAt))
        changeInstants = instants.sorted()
    }

    /// Where `verdict` folds at `now` (F12): the binding it names, moved by each recovery redeemed by
    /// `now` of its case, in redemption order, that moves from where it then is — "folding a binding takes
    /// the verdicts the recoveries by T put there", later verdicts naming the old binding included.
    func binding(of verdict: OracleVerdict, at now: OracleInstant) -> String {
        var binding = verdict.deviceBinding
        for recovery in redemptions where recovery.redeemedAt <= now && recovery.grantType == .recovery {
            if recovery.authority == verdict.authority, recovery.caseId == verdict.caseId,
                recovery.fromBinding == binding
            {
                binding = recovery.toBinding!
            }
        }
        return binding
    }

    /// What the rules give at `now` for the binding `on` (every verdict, wherever it folds, when nil).
    func answer(at now: OracleInstant, on asked: String? = nil) -> Answer {
        var simulation = OracleSimulation(now: now)
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
            if let asked, binding(of: verdict, at: now) != asked { continue }
            if let from = revokedFrom[verdict.authority], verdict.decidedAt >= from { continue }
            simulation.schedule(
                .decision(verdict), at: verdict.decidedAt,
                order: DecisionOrder(verdict: verdict, firstReceipt: firstReceipt))
        }
        // F12: an unban ends, at its redemption, its case's bans accusing the grantee decided by then —
        // after everything else at that instant (F9, extended), one unban after another in redemption order.
        for unban in redemptions where unban.grantType == .unban && unban.redeemedAt <= now {
            simulation.schedule(
                .unban(caseName: unban.caseName, grantee: unban.grantee, label: unban.label), at: unban.redeemedAt)
        }
        simulation.run()
        return simulation.answer()
    }
}
