/// A recovery or unban grant (onym-wire §3.12, §1.3, §2): an authority's signed permission, for one
/// case and one grantee, that the interface re-link the grantee's case to a new device binding after a
/// reinstall (`onym-recovery-grant-v1`, profile §10 "identity-mediated re-linking after reinstall") or
/// end the grantee's ban in that case (`onym-unban-grant-v1`, logged `recovery-unban:<grantRef>`, §3.13).
///
/// > grant JSON `{grantType:"onym-recovery-grant-v1", grantVersion:1, caseId, grantee, authority,
/// > issuedAt, signature}` (or `grantType:"onym-unban-grant-v1"`); grant lifetime 30 days, 5 min future
/// > skew; single-use by `grantRef`.
///
/// Signed by the authority's operator key over ``signingBytes`` (`grant_signing_bytes`: canonical JSON
/// without `signature`); ``ref`` (the `grantRef`, SHA-256 of those bytes) is its content address. The
/// stored grant says nothing until a ``Redemption`` redeems it (docs/FORMAT.md "Grants and redemptions").
public struct Grant: SignedLedgerRecord, Equatable {
    /// What a grant permits.
    public enum GrantType: String, Sendable, CaseIterable {
        case recovery = "onym-recovery-grant-v1"
        case unban = "onym-unban-grant-v1"

        /// The record's `grantType` field (a grant's, or the redemption's that repeats it).
        init(_ reader: FieldReader) throws(LedgerFormatError) {
            guard let type = GrantType(rawValue: try reader.string("grantType")) else {
                throw LedgerFormatError(
                    .invalidValue, "grantType must be onym-recovery-grant-v1 or onym-unban-grant-v1",
                    path: "$.grantType")
            }
            self = type
        }
    }

    /// Onym-wire §3.12: "grant lifetime 30 days".
    public static let lifetimeSeconds: Int64 = 30 * 86_400
    /// Onym-wire §3.12: "5 min future skew" — a grant issued up to 300 s after its redemption.
    public static let futureSkewSeconds: Int64 = 300

    public static let fields: Set<String> = [
        "grantType", "grantVersion", "caseId", "grantee", "authority", "issuedAt", "signature",
    ]

    public let json: JSONObject
    public let grantType: GrantType
    public let caseId: String
    /// The grantee's identity key (`onym:key:…`), as written.
    public let grantee: String
    public let authority: String
    public let issuedAt: Instant
    public let signature: [UInt8]

    public init(json: JSONObject) throws(LedgerFormatError) {
        let reader = FieldReader(json)
        try reader.rejectUnknownKeys(allowed: Self.fields)
        grantType = try GrantType(reader)
        try reader.version("grantVersion")
        caseId = try reader.nonEmptyString("caseId")
        _ = try reader.onymKey("grantee")
        grantee = try reader.string("grantee")
        authority = try reader.componentId("authority")
        issuedAt = try reader.timestamp("issuedAt")
        signature = try SignatureEncoding.decode(try reader.string("signature"), field: "$.signature")
        self.json = json
    }

    /// Why the grant may not be redeemed at `time` (its lifetime and future skew), or nil.
    public func lifetimeViolation(at time: Instant) -> String? {
        if issuedAt.seconds > time.seconds + Self.futureSkewSeconds {
            return
                "the grant is issued at \(issuedAt), more than \(Self.futureSkewSeconds) s after its redemption at \(time)"
        }
        if time.seconds > issuedAt.seconds + Self.lifetimeSeconds {
            return "the grant issued at \(issuedAt) expired 30 days later, before its redemption at \(time)"
        }
        return nil
    }
}

/// The vendor's redemption of a grant (onym-wire §5 `recoveries(grant_ref, case_id, from_binding,
/// to_binding, recovered_at)`, and the unban redemption the newest reference keeps beside it): unsigned,
/// like a receipt — the vendor's signed commit is its signature. It names the grant it redeems and the
/// grantee's mandate for the grant's authority (whose consented manifest's operator key signs the grant),
/// and states the bindings and the time (docs/FORMAT.md "Grants and redemptions").
public struct Redemption: Sendable, Equatable {
    public static let fields: Set<String> = [
        "redemptionVersion", "grantRef", "grantType", "caseId", "mandateRef", "fromBinding", "toBinding",
        "redeemedAt",
    ]

    public let json: JSONObject
    public let grantRef: ContentAddress
    public let grantType: Grant.GrantType
    public let caseId: String
    public let mandateRef: ContentAddress
    /// The binding the grant acts on: where the case's verdicts are at the redemption.
    public let fromBinding: String
    /// For a recovery: the binding the case's verdicts and the grantee's mandates move to.
    public let toBinding: String?
    public let redeemedAt: Instant

    public init(json: JSONObject) throws(LedgerFormatError) {
        let reader = FieldReader(json)
        try reader.rejectUnknownKeys(allowed: Self.fields)
        try reader.version("redemptionVersion")
        grantRef = try reader.contentAddress("grantRef")
        grantType = try Grant.GrantType(reader)
        caseId = try reader.nonEmptyString("caseId")
        mandateRef = try reader.contentAddress("mandateRef")
        fromBinding = try reader.nonEmptyString("fromBinding")
        toBinding = json["toBinding"] == nil ? nil : try reader.nonEmptyString("toBinding")
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
