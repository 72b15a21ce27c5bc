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
public final class Grant: SignedLedgerRecord, Equatable {
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
    public let caseId: WireString
    /// The grantee's identity key (`onym:key:…`), as written.
    public let grantee: WireString
    public let authority: WireString
    public let issuedAt: Instant
    public let signature: [UInt8]

    public init(json: JSONObject) throws(LedgerFormatError) {
        let reader = FieldReader(json)
        try reader.rejectUnknownKeys(allowed: Self.fields)
        grantType = try GrantType(reader)
        try reader.version("grantVersion")
        caseId = try reader.nonEmptyWireString("caseId")
        _ = try reader.onymKey("grantee")
        grantee = try reader.wireString("grantee")
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

extension Grant {
    /// Two grants are equal when their objects are: every field is read from the object.
    public static func == (left: Grant, right: Grant) -> Bool { left === right || left.json == right.json }
}
