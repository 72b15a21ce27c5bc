/// Identity-mediated re-linking after reinstall and unban by grant (profile §10; onym-wire §3.12,
/// §3.13, §5 `recoveries`): what a redeemed grant does to the fold, and when a redemption is within the
/// rules (docs/FORMAT.md "Grants and redemptions"; docs/DECISIONS.md "Grants").
///
/// * A **recovery** moves the case's verdicts, and the grantee's mandates for the grant's authority,
///   from `fromBinding` to `toBinding` at its redemption: from then on they fold on `toBinding`, and so
///   does every later verdict of the case that names `fromBinding` (reference §5: "recovery re-binds
///   verdicts and mandates from one binding to another").
/// * An **unban** ends, at its redemption, every ban of the case that accuses the grantee and was
///   decided by then; a write it authorizes is logged `recovery-unban:<grantRef>` (reference §3.13).
///
/// Only a redemption within the rules (``judge(_:resolved:facts:earlier:)``) has an effect: one the
/// vendor stored outside them is a conduct finding and is not executed, like a stored invalid verdict.
public enum GrantRedemption {
    /// Onym-wire §3.13: "newest code also `recovery-unban:<grantRef>`".
    public static let labelPrefix = "recovery-unban:"

    /// One redemption within the rules: what it does, from when.
    public struct Effect: Sendable, Equatable {
        public let grantRef: ContentAddress
        public let grantType: Grant.GrantType
        public let authority: WireString
        public let caseId: WireString
        public let grantee: WireString
        public let fromBinding: WireString
        public let toBinding: WireString?
        public let redeemedAt: Instant

        public init(
            grantRef: ContentAddress, grantType: Grant.GrantType, authority: WireString, caseId: WireString,
            grantee: WireString,
            fromBinding: WireString, toBinding: WireString?, redeemedAt: Instant
        ) {
            self.grantRef = grantRef
            self.grantType = grantType
            self.authority = authority
            self.caseId = caseId
            self.grantee = grantee
            self.fromBinding = fromBinding
            self.toBinding = toBinding
            self.redeemedAt = redeemedAt
        }

        public var caseKey: VerdictFact.CaseKey { VerdictFact.CaseKey(authority: authority, caseId: caseId) }
        /// What a write it authorizes is logged against.
        public var label: String { GrantRedemption.labelPrefix + grantRef.hex }
        public func applies(at time: Instant) -> Bool { redeemedAt <= time }
    }

    /// The records a redemption names, as found in the ledger.
    public struct Resolved: Sendable {
        public let grant: Grant?
        public let mandate: Mandate?
        public let manifest: AuthorityManifest?

        public init(grant: Grant?, mandate: Mandate?, manifest: AuthorityManifest?) {
            self.grant = grant
            self.mandate = mandate
            self.manifest = manifest
        }
    }

    /// Why a redemption is outside the rules.
    public struct Refusal: Error, Sendable, Equatable {
        public let reason: String
    }

    // MARK: - Where records are after recoveries

    /// Where something first stored on `binding` is at `time`, following the recoveries that move it: in
    /// `redeemedAt` order, and recoveries redeemed at one instant in the order the ledger stores them (the
    /// order `judge(_:resolved:facts:earlier:)` judged them in, each against the ones before it;
    /// docs/DECISIONS.md, "F12, recoveries at one instant").
    static func location(
        of binding: WireString, at time: Instant, _ effects: [Effect], moves: (Effect) -> Bool
    ) -> WireString {
        var current = binding
        let ordered = effects.indices.sorted {
            (effects[$0].redeemedAt, $0) < (effects[$1].redeemedAt, $1)
        }
        for effect in ordered.map({ effects[$0] })
        where effect.applies(at: time) && effect.fromBinding == current && moves(effect) {
            current = effect.toBinding ?? current
        }
        return current
    }

    /// Where a verdict fact folds at `time`.
    public static func binding(of fact: VerdictFact, at time: Instant, _ effects: [Effect]) -> WireString {
        binding(ofCase: fact.caseKey, from: fact.deviceBinding, at: time, effects)
    }

    /// Where case `key`'s verdicts stored on `binding` fold at `time`.
    public static func binding(
        ofCase key: VerdictFact.CaseKey, from binding: WireString, at time: Instant, _ effects: [Effect]
    )
        -> WireString
    {
        location(of: binding, at: time, effects) { $0.caseKey == key }
    }

    /// Where a mandate counts at `time`.
    public static func binding(of mandate: Mandate, at time: Instant, _ effects: [Effect]) -> WireString {
        location(of: mandate.deviceBinding, at: time, effects) {
            $0.authority == mandate.authority && $0.grantee == mandate.userKey
        }
    }

    /// `binding` and every binding a recovery moved something from into it (directly or through others):
    /// where the facts that may fold on `binding` are stored.
    public static func sources(of binding: WireString, _ effects: [Effect]) -> [WireString] {
        var found = [binding]
        var index = 0
        while index < found.count {
            for effect in effects where effect.toBinding == found[index] && !found.contains(effect.fromBinding) {
                found.append(effect.fromBinding)
            }
            index += 1
        }
        return found
    }

    // MARK: - The rules of a redemption

    /// Whether `redemption` is within the rules, given the records it names, the verdict facts that may
    /// fold on its `fromBinding` (``sources(of:_:)``) and the redemptions before it; its effect when it is.
    ///
    /// Onym-wire §3.12 and §2: the grant is signed by the operator key of the manifest the grantee's
    /// mandate for the authority consented to; it is redeemed within its lifetime (30 days, 5 min future
    /// skew) and once; its grantee is the accused identity, with a mandate for that authority on the
    /// binding, in a case on that binding (for an unban: a ban of that case known by the redemption).
    public static func judge(
        _ redemption: Redemption, resolved: Resolved, facts: [VerdictFact], earlier: [Effect]
    ) -> Result<Effect, Refusal> {
        func refuse(_ reason: String) -> Result<Effect, Refusal> { .failure(Refusal(reason: reason)) }
        guard let grant = resolved.grant else {
            return refuse("redeems grant \(redemption.grantRef.hex), which the ledger does not hold")
        }
        guard grant.grantType == redemption.grantType, grant.caseId == redemption.caseId else {
            return refuse(
                "states \(redemption.grantType.rawValue) for case \(redemption.caseId), but its grant is "
                    + "\(grant.grantType.rawValue) for case \(grant.caseId)")
        }
        guard let mandate = resolved.mandate else {
            return refuse("names mandate \(redemption.mandateRef.hex), which the ledger does not hold")
        }
        guard mandate.userKey == grant.grantee, mandate.authority == grant.authority else {
            return refuse(
                "names a mandate of \(mandate.userKey) for \(mandate.authority), not the grantee's mandate "
                    + "for \(grant.authority)")
        }
        guard let manifest = resolved.manifest else {
            return refuse("the grantee's consented manifest \(mandate.manifestHash.hex) is not in the ledger")
        }
        let signature = grant.signatureStatus(keys: [manifest.operatorKey])
        guard signature == .valid else {
            return refuse(
                "the grant's signature is \(signature.rawValue) under the operator key of the grantee's "
                    + "consented manifest")
        }
        if let reason = grant.lifetimeViolation(at: redemption.redeemedAt) { return refuse(reason) }
        if let first = earlier.first(where: { $0.grantRef == redemption.grantRef }) {
            return refuse("grant \(redemption.grantRef.hex) is single use and was redeemed at \(first.redeemedAt)")
        }
        let at = redemption.redeemedAt
        guard binding(of: mandate, at: at, earlier) == redemption.fromBinding else {
            return refuse(
                "the grantee's mandate is on \(binding(of: mandate, at: at, earlier)), not on "
                    + "\(redemption.fromBinding)")
        }
        let key = VerdictFact.CaseKey(authority: grant.authority, caseId: grant.caseId)
        let accusing = facts.filter {
            $0.caseKey == key && $0.knownAt <= at && $0.accusedKeys.contains(grant.grantee)
                && binding(of: $0, at: at, earlier) == redemption.fromBinding
        }
        switch grant.grantType {
        case .recovery where accusing.isEmpty:
            return refuse("no verdict of case \(grant.caseId) accuses the grantee on \(redemption.fromBinding)")
        case .unban where !accusing.contains(where: { $0.disposition == .ban }):
            return refuse("no ban of case \(grant.caseId) accuses the grantee on \(redemption.fromBinding)")
        default:
            break
        }
        return .success(
            Effect(
                grantRef: redemption.grantRef, grantType: grant.grantType, authority: grant.authority,
                caseId: grant.caseId, grantee: grant.grantee, fromBinding: redemption.fromBinding,
                toBinding: redemption.toBinding, redeemedAt: at))
    }
}
