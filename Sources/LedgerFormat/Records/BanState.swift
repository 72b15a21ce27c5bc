/// What a banned gate answer carries (reference §3.11, Rust key spelling `appealUrl`/`newHolderUrl`).
public struct BanState: Sendable, Equatable {
    public static let fields: Set<String> = [
        "verdictRef", "verdict", "authorityContact", "banExpires", "appealUrl", "newHolderUrl",
    ]

    public let verdictRef: String
    /// The governing verdict's JSON (the reference re-serializes it; the ledger passes the stored object).
    public let verdict: JSONObject?
    public let authorityContact: String
    public let banExpires: String?
    public let appealUrl: String?
    public let newHolderUrl: String?

    public init(
        verdictRef: String, verdict: JSONObject?, authorityContact: String, banExpires: String?, appealUrl: String?,
        newHolderUrl: String?
    ) {
        self.verdictRef = verdictRef
        self.verdict = verdict
        self.authorityContact = authorityContact
        self.banExpires = banExpires
        self.appealUrl = appealUrl
        self.newHolderUrl = newHolderUrl
    }

    /// The reference projection (`enforcement.rs::ban_state`), with its fallback contact text.
    public init(governing verdict: Verdict) {
        self.init(
            verdictRef: verdict.ref.hex, verdict: verdict.json,
            authorityContact: verdict.authorityContact
                ?? "\(verdict.authority) (see the authority's published manifest)",
            banExpires: verdict.json["banExpires"]?.stringValue,
            appealUrl: verdict.appealUrl, newHolderUrl: verdict.newHolderUrl)
    }

    public init(json: JSONObject, path: String = "$") throws(LedgerFormatError) {
        let reader = FieldReader(json, path: path)
        try reader.rejectUnknownKeys(allowed: Self.fields)
        verdictRef = try reader.string("verdictRef")
        verdict = try reader.optionalObject("verdict")?.object
        authorityContact = try reader.string("authorityContact")
        banExpires = try reader.optionalString("banExpires")
        appealUrl = try reader.optionalString("appealUrl")
        newHolderUrl = try reader.optionalString("newHolderUrl")
    }

    public var json: JSONObject {
        var object = JSONObject([("verdictRef", .string(verdictRef)), ("authorityContact", .string(authorityContact))])
        if let verdict { object.set("verdict", .object(verdict)) }
        if let banExpires { object.set("banExpires", .string(banExpires)) }
        if let appealUrl { object.set("appealUrl", .string(appealUrl)) }
        if let newHolderUrl { object.set("newHolderUrl", .string(newHolderUrl)) }
        return object
    }

    /// Profile §8.10: a ban without a usable appeal or new-holder path is nonconforming.
    public var lacksRecourse: Bool { appealUrl == nil || newHolderUrl == nil }
}
