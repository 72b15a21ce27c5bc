/// A grant as a stored kind (onym-wire §3.12): addressed by its `grantRef`. It names no record — the
/// key that signs it is the operator key of the manifest the grantee's mandate consented to, which the
/// ``Redemption`` that redeems it names — so its signature is checked at its redemption.
extension Grant: CanonicalStoredRecord {
    public static let kindName = "grant"
    public static let code: UInt8 = 8
    public static let folder = "grants"
    public static let tellingFields = ["grantVersion"]
    public var address: ContentAddress { ref }

    public var timedFields: [TimeWindow.Field] { [.init("issuedAt", issuedAt, .statedElsewhere)] }
}

/// A grant read: what it permits, the authority that signs it, the case and grantee, when it was issued
/// and how long it may be redeemed (onym-wire §3.12: "grant lifetime 30 days … single-use by
/// `grantRef`").
extension Grant {
    public var reading: RecordFacts {
        RecordFacts(
            title: grantType.words.prefix(1).uppercased() + grantType.words.dropFirst() + " in case \(caseId)",
            facts: [
                .init("What it permits", .words(grantType.permits)),
                .init("Grant type", .text(grantType.rawValue)),
                .init("Authority (signs it)", .authority(authority.text)),
                .init("Case", .text(caseId.text)),
                .init("Grantee", .key(grantee.text)),
                .init("Issued at", .time(issuedAt)),
                .init("Lifetime", .duration(seconds: Self.lifetimeSeconds)),
                .init("Redeemable until", .time(issuedAt.adding(seconds: Self.lifetimeSeconds))),
                .init("Effect", .words("none until a redemption redeems it, once")),
            ])
    }
}

extension Grant.GrantType {
    /// The grant type in words: `recovery grant`, `unban grant`.
    public var words: String {
        switch self {
        case .recovery: "recovery grant"
        case .unban: "unban grant"
        }
    }

    /// The grant type in words after an indefinite article: `a recovery grant`, `an unban grant`.
    var withArticle: String {
        switch self {
        case .recovery: "a recovery grant"
        case .unban: "an unban grant"
        }
    }

    /// What a grant of this type permits (onym-wire §3.12, §3.13; profile §10).
    var permits: String {
        switch self {
        case .recovery: "moving the grantee's case to the device binding of a reinstalled app"
        case .unban: "ending the grantee's ban in the case"
        }
    }
}
