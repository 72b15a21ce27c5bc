/// The vendor's redemption of a grant (onym-wire §5 `recoveries(grant_ref, case_id, from_binding,
/// to_binding, recovered_at)`, and the unban redemption the newest reference keeps beside it): unsigned,
/// like a receipt — the vendor's signed commit is its signature. It names the grant it redeems and the
/// grantee's mandate for the grant's authority (whose consented manifest's operator key signs the grant),
/// and states the bindings and the time (docs/FORMAT.md "Grants and redemptions").
public final class Redemption: Sendable, Equatable {
    public static let fields: Set<String> = [
        "redemptionVersion", "grantRef", "grantType", "caseId", "mandateRef", "fromBinding", "toBinding",
        "redeemedAt",
    ]

    public let json: JSONObject
    public let grantRef: ContentAddress
    public let grantType: Grant.GrantType
    public let caseId: WireString
    public let mandateRef: ContentAddress
    /// The binding the grant acts on: where the case's verdicts are at the redemption.
    public let fromBinding: WireString
    /// For a recovery: the binding the case's verdicts and the grantee's mandates move to.
    public let toBinding: WireString?
    public let redeemedAt: Instant

    public init(json: JSONObject) throws(LedgerFormatError) {
        let reader = FieldReader(json)
        try reader.rejectUnknownKeys(allowed: Self.fields)
        try reader.version("redemptionVersion")
        grantRef = try reader.contentAddress("grantRef")
        grantType = try Grant.GrantType(reader)
        caseId = try reader.nonEmptyWireString("caseId")
        mandateRef = try reader.contentAddress("mandateRef")
        fromBinding = try reader.nonEmptyWireString("fromBinding")
        toBinding = json["toBinding"] == nil ? nil : try reader.nonEmptyWireString("toBinding")
        guard (toBinding != nil) == (grantType == .recovery) else {
            throw LedgerFormatError(
                .invalidValue, "toBinding is present exactly when the grant is a recovery grant", path: "$.toBinding")
        }
        guard toBinding != fromBinding else {
            throw LedgerFormatError(.invalidValue, "a recovery moves to another binding", path: "$.toBinding")
        }
        redeemedAt = try reader.timestamp("redeemedAt")
        self.json = json
    }

    /// Its content address: SHA-256 of its canonical bytes (it carries no signature).
    public var ref: ContentAddress { SHA256.hash(CanonicalJSON.encode(json)) }
}

extension Redemption {
    /// Two redemptions are equal when their objects are: every field is read from the object.
    public static func == (left: Redemption, right: Redemption) -> Bool { left === right || left.json == right.json }
}
