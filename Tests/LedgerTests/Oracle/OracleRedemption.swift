/// What the oracle reads from the raw bytes of a grant and of the vendor's redemption of it — its own
/// model, from the reference's field names (onym-wire §3.12: a grant is `{grantType, grantVersion,
/// caseId, grantee, authority, issuedAt, signature}`; docs/FORMAT.md "Grants and redemptions": a
/// redemption is `{redemptionVersion, grantRef, grantType, caseId, mandateRef, fromBinding, toBinding?,
/// redeemedAt}`). Only redemptions within the rules reach the fold (docs/DECISIONS.md "Grants": "a misused
/// redemption has no effect"), so this reads what one does, not whether it may.
struct OracleRedemption {
    enum GrantType: String {
        case recovery = "onym-recovery-grant-v1"
        case unban = "onym-unban-grant-v1"
    }

    /// SHA-256 of the canonical grant without `signature` (docs/FORMAT.md: "`grantRef`, its content
    /// address, is SHA-256 of those same bytes"), computed here.
    var grantRef: String
    var grantType: GrantType
    var authority: String
    var caseId: String
    /// The `onym:key:` the grant is for: an unban ends only bans accusing it (F12).
    var grantee: String
    var fromBinding: String
    /// Present exactly for a recovery: where the case's verdicts fold from `redeemedAt` on.
    var toBinding: String?
    var redeemedAt: OracleInstant

    /// A case is named by its authority and `caseId` (F3), as the simulation names it.
    var caseName: String { authority + "\u{0}" + caseId }

    /// What a write the unban explains is logged against (onym-wire §3.13: "`recovery-unban:<grantRef>`").
    var label: String { "recovery-unban:" + grantRef }

    init(grant grantBytes: [UInt8], redemption redemptionBytes: [UInt8]) throws {
        let grant = try OracleJSON.object(grantBytes, "grant")
        let redemption = try OracleJSON.object(redemptionBytes, "redemption")
        func text(_ key: String, in object: [String: Any], _ what: String) throws -> String {
            guard let value = object[key] as? String else {
                throw OracleJSON.Unreadable(description: "\(what): `\(key)` is not a string")
            }
            return value
        }
        grantRef = try OracleJSON.contentAddress(grant, omitting: "signature")
        guard try text("grantRef", in: redemption, "redemption") == grantRef else {
            throw OracleJSON.Unreadable(description: "the redemption names another grant than \(grantRef)")
        }
        guard let type = GrantType(rawValue: try text("grantType", in: grant, "grant")),
            try text("grantType", in: redemption, "redemption") == type.rawValue,
            try text("caseId", in: redemption, "redemption") == text("caseId", in: grant, "grant")
        else { throw OracleJSON.Unreadable(description: "the redemption's type or case is not its grant's") }
        grantType = type
        authority = try text("authority", in: grant, "grant")
        caseId = try text("caseId", in: grant, "grant")
        grantee = try text("grantee", in: grant, "grant")
        fromBinding = try text("fromBinding", in: redemption, "redemption")
        toBinding = redemption["toBinding"] as? String
        guard (toBinding != nil) == (type == .recovery), toBinding != fromBinding else {
            throw OracleJSON.Unreadable(description: "redemption: `toBinding` is present exactly for a recovery")
        }
        redeemedAt = try OracleTime.parse(try text("redeemedAt", in: redemption, "redemption"))
    }
}
