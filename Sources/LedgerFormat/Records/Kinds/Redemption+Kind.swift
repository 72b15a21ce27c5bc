/// A redemption as a stored kind (onym-wire §5 `recoveries`): it names the grant it redeems (in its
/// commit or before), the grantee's mandate and, through it, the consented manifest, whose operator key
/// must have signed the grant (onym-wire §2: "Recovery grant / unban grant — authority operator key").
extension Redemption: CanonicalStoredRecord {
    public static let kindName = "redemption"
    public static let code: UInt8 = 9
    public static let folder = "redemptions"
    public static let tellingFields = ["redemptionVersion"]
    public var address: ContentAddress { ref }

    public static let references: [RecordReference] = [
        .field(of: Redemption.self, to: Grant.self) { [$0.grantRef] },
        .field(of: Redemption.self, to: Mandate.self) { [$0.mandateRef] },
        .through(Mandate.self, to: AuthorityManifest.self) { $0.manifestHash },
    ]

    /// The grant's signature, under the operator key of the manifest the named mandate consented to; not
    /// checked where the grant is not found (the grant's own lone file names no key: this is its rule).
    public static let signatures: [SignatureRule] = [
        .init(of: Redemption.self, .grant, key: .referencedManifestOperator) { _, keys, found in
            found.first(Grant.self).map { $0.signatureStatus(keys: keys) }
        }
    ]

    public var timedFields: [TimeWindow.Field] { [.init("redeemedAt", redeemedAt, .vendorEvent)] }
}

/// A redemption read: the grant it redeems, the grantee's mandate, the bindings it acts on and when, and
/// what it does from then on (docs/FORMAT.md "Grants and redemptions").
extension Redemption {
    public var reading: RecordFacts {
        let does =
            switch grantType {
            case .recovery: "moves the case's verdicts and the grantee's mandates from one device binding to the other"
            case .unban: "ends the grantee's bans in the case decided by its time"
            }
        var facts: [RecordFacts.Fact] = [
            .init("What it does", .words("The vendor redeemed the grant: it \(does).")),
            .init("Grant it redeems", .reference(grantRef)),
            .init("Grant type", .text(grantType.rawValue)),
            .init("Case", .text(caseId.text)),
            .init("Grantee's mandate", .reference(mandateRef)),
            .init("From device binding", .text(fromBinding.text)),
        ]
        if let toBinding { facts.append(.init("To device binding", .text(toBinding.text))) }
        facts.append(.init("Redeemed at", .time(redeemedAt)))
        return RecordFacts(title: "Redemption of \(grantType.withArticle) in case \(caseId)", facts: facts)
    }
}
