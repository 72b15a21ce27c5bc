/// The enforcement-profile object (profile §1; reference §3.1 — spec only, no reference code).
public final class EnforcementProfile: Sendable {
    public let json: JSONObject
    /// SHA-256 of the canonical bytes without `signature` (the ledger's convention for every kind
    /// whose signature travels inside the object; docs/FORMAT.md).
    public let ref: ContentAddress
    public let profileId: String
    public let platform: String
    /// `markBindings`: mark name → platform bit (`case-open` → `bit0`, `banned` → `bit1`).
    public let markBindings: [String: String]

    public init(json: JSONObject) throws(LedgerFormatError) {
        let fields = FieldReader(json)
        try fields.version("profileVersion")
        profileId = try fields.nonEmptyString("profileId")
        platform = try fields.nonEmptyString("platform")
        let bindings = try fields.object("bindings")
        for member in bindings.object.members {
            let binding = try bindings.object(member.key)
            _ = try binding.string("requestSchema")
            _ = try binding.string("resultSchema")
        }
        _ = try fields.string("caseNoticeSchema")
        let marks = try fields.object("markBindings")
        var markBindings: [String: String] = [:]
        for member in marks.object.members { markBindings[member.key] = try marks.string(member.key) }
        if platform == "apple-devicecheck" {
            // Profile §1/§4: the two-bit contract is fixed; reissuing it with other bindings is nonconforming.
            guard markBindings == ["case-open": "bit0", "banned": "bit1"] else {
                throw LedgerFormatError(
                    .invalidValue, "apple-devicecheck binds case-open to bit0 and banned to bit1",
                    path: "$.markBindings")
            }
        }
        self.markBindings = markBindings
        _ = try fields.string("specification")
        self.json = json
        self.ref = SHA256.hash(CanonicalJSON.signingBytes(of: json, omitting: "signature"))
    }
}
