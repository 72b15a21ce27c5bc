/// What the oracle reads from the raw bytes of a verdict, its receipt and its consented manifest — its
/// own model, from the reference's field names (onym-wire §3.2 manifest, §3.4 verdict, §3.6 receipt).
struct OracleVerdict {
    enum Disposition: Int {
        // onym-wire §4.2: "at equal instants open-case < ban < dismiss (terminal precedence)".
        case openCase = 0
        case ban = 1
        case dismiss = 2
    }

    /// SHA-256 of the canonical verdict without `signature` (onym-wire §1.3), computed here.
    var ref: String
    var authority: String
    var caseId: String
    /// The binding the verdict names (`deviceBinding`), before any recovery moves it (F12).
    var deviceBinding: String
    /// The identities it accuses (`accusedKeys`): an unban ends only bans accusing its grantee (F12).
    var accusedKeys: [String]
    var disposition: Disposition
    var decidedAt: OracleInstant
    var executeAfter: OracleInstant?
    var banExpires: OracleInstant?
    /// For an open-case verdict: when its case must be decided (F4) — its signed `decisionDeadline`,
    /// else `decidedAt` + its class's `decisionDeadline` in the consented manifest; never before
    /// `decidedAt`.
    var deadline: OracleInstant?
    /// Whether the consented manifest names an external `appellate` (a forum that survives a revocation
    /// of this authority, onym-wire §9: "a declared external `appellate` in the manifest acts as
    /// successor-of-record").
    var survivingForum: Bool

    init(verdict bytes: [UInt8], manifest manifestBytes: [UInt8]) throws {
        let object = try OracleJSON.object(bytes, "verdict")
        let manifest = try OracleJSON.object(manifestBytes, "manifest")
        func text(_ key: String, in object: [String: Any] = object) throws -> String {
            guard let value = object[key] as? String else {
                throw OracleJSON.Unreadable(description: "verdict: `\(key)` is not a string")
            }
            return value
        }
        func time(_ key: String) throws -> OracleInstant? {
            guard object[key] != nil else { return nil }
            return try OracleTime.parse(try text(key))
        }
        ref = try OracleJSON.contentAddress(object, omitting: "signature")
        let authority = try text("authority")
        self.authority = authority
        caseId = try text("caseId")
        deviceBinding = try text("deviceBinding")
        guard let accused = object["accusedKeys"] as? [String] else {
            throw OracleJSON.Unreadable(description: "verdict: `accusedKeys` is not an array of strings")
        }
        accusedKeys = accused
        guard
            let disposition = ["open-case": Disposition.openCase, "ban": .ban, "dismiss": .dismiss][
                try text("disposition")]
        else { throw OracleJSON.Unreadable(description: "verdict: unknown disposition") }
        self.disposition = disposition
        decidedAt = try OracleTime.parse(try text("decidedAt"))
        executeAfter = try time("executeAfter")
        banExpires = try time("banExpires")
        guard try text("componentId", in: manifest) == authority else {
            throw OracleJSON.Unreadable(description: "the consented manifest is not the verdict's authority's")
        }
        let appellate = manifest["appellate"] as? String
        survivingForum = appellate.map { $0 != "self" && $0 != authority } ?? false
        if disposition == .openCase {
            if let signed = try time("decisionDeadline") {
                deadline = max(signed, decidedAt)
            } else {
                let classId = try text("classId")
                let classes = manifest["violationClasses"] as? [[String: Any]] ?? []
                guard let terms = classes.first(where: { $0["classId"] as? String == classId }),
                    let days = (terms["decisionDeadline"] as? String).flatMap(OracleTime.days)
                else {
                    throw OracleJSON.Unreadable(
                        description: "open-case verdict: class \(classId) has no decision deadline in its manifest")
                }
                deadline = decidedAt.adding(days: days)
            }
        }
    }
}

/// A receipt: which verdict (by its ref) the vendor received, and when.
struct OracleReceipt {
    var verdictRef: String
    var receivedAt: OracleInstant

    init(_ bytes: [UInt8]) throws {
        let object = try OracleJSON.object(bytes, "receipt")
        guard let ref = object["verdictRef"] as? String, let received = object["receivedAt"] as? String else {
            throw OracleJSON.Unreadable(description: "receipt: `verdictRef` and `receivedAt` must be strings")
        }
        verdictRef = ref
        receivedAt = try OracleTime.parse(received)
    }
}
