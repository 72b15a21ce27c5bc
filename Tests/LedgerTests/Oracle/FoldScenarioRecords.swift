import Foundation
import LedgerTestSupport

@testable import LedgerFormat
import LedgerStore

/// A scenario's records as raw bytes, and what each side makes of them: the oracle reads the bytes with
/// its own parsers (``EventOracle``); the fold gets them the way the product does — `CanonicalJSON.parse`,
/// `Verdict(json:)`, `VerdictReceipt(json:)`, `AuthorityManifest(rawBytes:)` and `VerdictFact`, and for a
/// redeemed grant `Grant(json:)` and `Redemption(json:)` into a `GrantRedemption.Effect`.
extension FoldScenario {
    struct Rendered {
        /// The raw verdict, receipt and consented manifest of each spec, in order.
        var deliveries: [EventOracle.Delivery]
        /// The fold's input, one fact per delivery.
        var facts: [VerdictFact]
        /// Each spec id's verdict ref, as the product computes it.
        var refs: [String: ContentAddress]
        /// The raw grant and redemption of each redemption spec, in order.
        var grants: [EventOracle.Redemption] = []
        /// The fold's input, one effect per redemption.
        var effects: [GrantRedemption.Effect] = []
    }

    func render() -> Rendered {
        var rendered = Rendered(deliveries: [], facts: [], refs: [:])
        for spec in redemptions {
            let grantBytes = Self.rawGrant(spec)
            let grant = try! Grant(json: CanonicalJSON.parse(grantBytes))
            let redemptionBytes = Self.rawRedemption(spec, grantRef: grant.ref)
            let redemption = try! Redemption(json: CanonicalJSON.parse(redemptionBytes))
            rendered.grants.append(.init(grant: grantBytes, redemption: redemptionBytes))
            rendered.effects.append(
                GrantRedemption.Effect(
                    grantRef: redemption.grantRef, grantType: grant.grantType, authority: grant.authority,
                    caseId: grant.caseId, grantee: grant.grantee, fromBinding: redemption.fromBinding,
                    toBinding: redemption.toBinding, redeemedAt: redemption.redeemedAt))
            rendered.refs[spec.id] = grant.ref
        }
        for spec in verdicts {
            let verdictBytes = Self.rawVerdict(spec)
            let verdict = try! Verdict(json: CanonicalJSON.parse(verdictBytes))
            let receiptBytes = Self.rawReceipt(spec, ref: verdict.ref)
            let receipt = try! VerdictReceipt(json: CanonicalJSON.parse(receiptBytes))
            rendered.deliveries.append(
                .init(
                    verdict: verdictBytes, receipt: receiptBytes,
                    manifest: Self.authorities[spec.authority]!.manifestBytes))
            rendered.facts.append(
                VerdictFact(verdict: verdict, receivedAt: receipt.receivedAt, manifest: Self.manifests[spec.authority]!)
            )
            rendered.refs[spec.id] = verdict.ref
        }
        return rendered
    }

    /// The facts the fold sees, and each verdict's ref by spec id.
    func facts() -> (facts: [VerdictFact], refs: [String: ContentAddress]) {
        let rendered = render()
        return (rendered.facts, rendered.refs)
    }

    /// The revocations as the fold takes them.
    func effects() -> [DesignationRevocation.Effect] {
        revocations.map {
            DesignationRevocation.Effect(
                authority: WireString(Self.authorities[$0.authority]!.componentId),
                effectiveAt: Instant.parse($0.effective)!,
                determinedAt: Instant.parse($0.determined)!)
        }
    }

    /// The oracle over the same bytes, revocations and redemptions.
    func oracle(_ rendered: Rendered) throws -> EventOracle {
        try EventOracle(
            deliveries: rendered.deliveries,
            revocations: revocations.map {
                .init(
                    authority: Self.authorities[$0.authority]!.componentId, effective: $0.effective,
                    determined: $0.determined)
            }, redemptions: rendered.grants)
    }

    /// The bindings the scenario's verdicts and recoveries name: each is folded and compared.
    var bindings: [String] {
        let named =
            verdicts.map(\.binding) + redemptions.flatMap { [$0.from, $0.grant == "recovery" ? $0.to ?? "2" : nil] }
        return Set(named.map { Self.binding(forKey: $0) } + [Self.binding]).sorted()
    }

    /// The signed verdict a spec describes, as the product reads it.
    static func verdict(_ spec: VerdictSpec) -> Verdict { try! Verdict(json: CanonicalJSON.parse(rawVerdict(spec))) }

    /// Every instant where something can change in the fold's facts, with the second before and after it.
    static func instants(
        _ facts: [VerdictFact], _ effects: [DesignationRevocation.Effect], _ redemptions: [GrantRedemption.Effect] = []
    ) -> [Instant] {
        var points: Set<Instant> = []
        for fact in facts {
            for point in [
                fact.decidedAt, fact.receivedAt, fact.executeAfter, fact.banExpires, fact.decisionDeadline,
            ] {
                if let point { points.insert(point) }
            }
        }
        for effect in effects { points.formUnion([effect.effectiveAt, effect.determinedAt]) }
        points.formUnion(redemptions.map(\.redeemedAt))
        return points.flatMap { [$0.adding(seconds: -1), $0, $0.adding(seconds: 1)] }.sorted()
    }

    // MARK: - Raw bytes

    /// The verdict as an authority emits it: its struct's field order (onym-wire §3.4, "declared field
    /// order, unsorted, `marks` as `case-open` then `banned`"), spaced — deliberately not canonical —
    /// signed over its canonical form without `signature`.
    static func rawVerdict(_ spec: VerdictSpec) -> [UInt8] {
        let authority = authorities[spec.authority]!
        let mandate = Self.mandate(spec.authority, user: spec.accused, binding: spec.binding)
        let (caseOpen, banned, final) =
            switch spec.disposition {
            case "ban": (false, true, false)
            case "dismiss": (false, false, true)
            default: (true, false, false)
            }
        let terms = spec.disposition == "ban" ? banTerms(spec) : nil
        var fields: [(String, RawJSON)] = [
            ("verdictVersion", .integer(1)), ("caseId", .string(spec.caseId)),
            ("authority", .string(authority.componentId)), ("mandateRef", .string(mandate.ref.hex)),
            ("accusedKeys", .array([.string(mandate.userKey.text)])),
            ("deviceBinding", .string(mandate.deviceBinding.text)),
            ("classId", .string(spec.classId)), ("disposition", .string(spec.disposition)),
            ("marks", .object([("case-open", .bool(caseOpen)), ("banned", .bool(banned))])),
        ]
        if let expires = terms?.banExpires { fields.append(("banExpires", .string(expires))) }
        if let terms { fields.append(("executeAfter", .string(terms.executeAfter))) }
        fields.append(("reasoning", .string("sha256:abababababababababababababababababababababababababababababababab")))
        if let terms { fields.append(("appealDeadline", .string(terms.appealDeadline))) }
        if let deadline = spec.deadline { fields.append(("decisionDeadline", .string(deadline))) }
        fields.append(("decidedAt", .string(spec.decided)))
        let unsigned = RawJSON.object(fields + [("final", .bool(final))]).bytes
        let signature = authority.operatorKey.signature(for: CanonicalJSON.encode(try! CanonicalJSON.parse(unsigned)))
        fields += [("signature", .string(Base64.encode(signature))), ("final", .bool(final))]
        return RawJSON.object(fields).bytes
    }

    /// The authority's grant (onym-wire §3.12): its struct's field order, spaced, signed by the operator
    /// key over its canonical form without `signature`.
    static func rawGrant(_ spec: RedemptionSpec) -> [UInt8] {
        let authority = authorities[spec.authority]!
        let fields: [(String, RawJSON)] = [
            ("grantType", .string(spec.grant == "unban" ? "onym-unban-grant-v1" : "onym-recovery-grant-v1")),
            ("grantVersion", .integer(1)), ("caseId", .string(spec.caseId)),
            ("grantee", .string(user(forKey: spec.grantee).publicKey.onymKey)),
            ("authority", .string(authority.componentId)), ("issuedAt", .string(spec.issued)),
        ]
        let unsigned = RawJSON.object(fields).bytes
        let signature = authority.operatorKey.signature(for: CanonicalJSON.encode(try! CanonicalJSON.parse(unsigned)))
        return RawJSON.object(fields + [("signature", .string(Base64.encode(signature)))]).bytes
    }

    /// The vendor's redemption (docs/FORMAT.md "Grants and redemptions"), naming the grantee's mandate on
    /// `fromBinding`.
    static func rawRedemption(_ spec: RedemptionSpec, grantRef: ContentAddress) -> [UInt8] {
        let recovery = spec.grant == "recovery"
        var fields: [(String, RawJSON)] = [
            ("redemptionVersion", .integer(1)), ("grantRef", .string(grantRef.hex)),
            ("grantType", .string(recovery ? "onym-recovery-grant-v1" : "onym-unban-grant-v1")),
            ("caseId", .string(spec.caseId)),
            ("mandateRef", .string(mandate(spec.authority, user: spec.grantee, binding: spec.from).ref.hex)),
            ("fromBinding", .string(binding(forKey: spec.from))),
        ]
        if recovery { fields.append(("toBinding", .string(binding(forKey: spec.to ?? "2")))) }
        return RawJSON.object(fields + [("redeemedAt", .string(spec.redeemed))]).bytes
    }

    /// The vendor's receipt: `{verdictRef, status, receivedAt}` (onym-wire §3.6 plus the receipt time,
    /// docs/DECISIONS.md), `stored` while a ban waits for its `executeAfter`.
    static func rawReceipt(_ spec: VerdictSpec, ref: ContentAddress) -> [UInt8] {
        let waiting =
            spec.disposition == "ban"
            && (try! OracleTime.parse(banTerms(spec).executeAfter)) > (try! OracleTime.parse(spec.received))
        return RawJSON.object([
            ("verdictRef", .string(ref.hex)), ("status", .string(waiting ? "stored" : "queued")),
            ("receivedAt", .string(spec.received)),
        ]).bytes
    }

    /// A ban's signed terms: the spec's, or derived exactly as the authority derives them (onym-wire §3.4:
    /// `appealDeadline = now + appealWindow`, `executeAfter = now` or `= appealDeadline`, `banExpires =
    /// executeAfter + banTerm`).
    static func banTerms(_ spec: VerdictSpec) -> (appealDeadline: String, executeAfter: String, banExpires: String?) {
        if let executeAfter = spec.executeAfter { return (spec.appealDeadline!, executeAfter, spec.banExpires) }
        let terms = authorities[spec.authority]!.classes.first { $0.classId == spec.classId }!
        let decided = try! OracleTime.parse(spec.decided)
        let appealDeadline = decided.adding(days: OracleTime.days(terms.appealWindow)!)
        let executeAfter = terms.appealEffect == "suspensive" ? appealDeadline : decided
        return (
            OracleTime.render(appealDeadline), OracleTime.render(executeAfter),
            OracleTime.days(terms.banTerm).map { OracleTime.render(executeAfter.adding(days: $0)) }
        )
    }
}

/// JSON text with the members in the order given (the generator's writer; the oracle never reads it).
enum RawJSON {
    case string(String)
    case integer(Int)
    case bool(Bool)
    case array([RawJSON])
    indirect case object([(String, RawJSON)])

    var bytes: [UInt8] { Array(text.utf8) }

    var text: String {
        switch self {
        case .string(let string): OracleJSON.quoted(string)
        case .integer(let integer): String(integer)
        case .bool(let bool): bool ? "true" : "false"
        case .array(let elements): "[" + elements.map(\.text).joined(separator: ", ") + "]"
        case .object(let members):
            "{" + members.map { OracleJSON.quoted($0.0) + ": " + $0.1.text }.joined(separator: ", ") + "}"
        }
    }
}
