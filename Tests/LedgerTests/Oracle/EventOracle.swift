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
    func answer(at now: OracleInstant) -> Answer {
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
            if let from = revokedFrom[verdict.authority], verdict.decidedAt >= from { continue }
            simulation.schedule(
                .decision(verdict), at: verdict.decidedAt,
                order: DecisionOrder(verdict: verdict, firstReceipt: firstReceipt))
        }
        simulation.run()
        return simulation.answer()
    }
}
