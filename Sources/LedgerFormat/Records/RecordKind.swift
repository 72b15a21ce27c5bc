/// Every JSON shape onym-ledger reads — the stored kinds, taken from ``StoredRecords/kinds`` (so a stored
/// kind is named as it names itself, never matched by a second spelling), and the wire-only shapes
/// (verdict submissions, write-log entries, case notices, ban states, gate answers) — recognized by shape:
/// the one place a new kind states the field that tells it apart.
public struct RecordKind: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The kind's name (`mandate`, `verdict-submission`): its schema's name in `schemas/`.
    public let rawValue: String
    /// The stored kind this shape is, when it is one.
    public let stored: (any StoredRecord.Type)?

    private init(_ name: String) {
        rawValue = name
        stored = nil
    }

    /// The shape of a stored kind.
    public init(stored kind: any StoredRecord.Type) {
        rawValue = kind.kindName
        stored = kind
    }

    public static func == (lhs: RecordKind, rhs: RecordKind) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    public var description: String { rawValue }

    public static let verdictSubmission = RecordKind("verdict-submission")
    public static let writeLogEntry = RecordKind("write-log-entry")
    public static let caseNotice = RecordKind("case-notice")
    public static let banState = RecordKind("ban-state")
    public static let gateResult = RecordKind("gate-result")

    public static var profile: RecordKind { .init(stored: EnforcementProfile.self) }
    public static var manifest: RecordKind { .init(stored: AuthorityManifest.self) }
    public static var mandate: RecordKind { .init(stored: Mandate.self) }
    public static var verdict: RecordKind { .init(stored: Verdict.self) }
    public static var receipt: RecordKind { .init(stored: VerdictReceipt.self) }
    public static var statusAttempt: RecordKind { .init(stored: StatusAttempt.self) }
    public static var compromiseReport: RecordKind { .init(stored: CompromiseReport.self) }
    public static var revocation: RecordKind { .init(stored: RevocationDetermination.self) }
    public static var grant: RecordKind { .init(stored: Grant.self) }
    public static var redemption: RecordKind { .init(stored: Redemption.self) }

    /// The stored kinds, then the wire-only shapes.
    public static var allCases: [RecordKind] {
        StoredRecords.kinds.map { RecordKind(stored: $0) } + [
            verdictSubmission, writeLogEntry, caseNotice, banState, gateResult,
        ]
    }

    /// Recognizes a record by its distinguishing fields; nil when no kind matches.
    ///
    /// Each kind has a field no other kind has, so recognition is unambiguous:
    /// `profileVersion`, `grantVersion`, `redemptionVersion`, `violationClasses`, `mandateVersion`, `verdictVersion`,
    /// `consentedManifest`, `entryHash`, `noticeVersion`/`evidenceSummary`, `authorityContact`;
    /// a receipt is exactly `{verdictRef, status, receivedAt}`; a gate result is one of four tags.
    public static func recognize(_ object: JSONObject) -> RecordKind? {
        func has(_ key: String) -> Bool { object[key] != nil }
        if has("profileVersion") { return .profile }
        if has("attemptVersion") { return .statusAttempt }
        if has("compromiseReportVersion") { return .compromiseReport }
        if has("revocationVersion") { return .revocation }
        if has("grantVersion") { return .grant }
        if has("redemptionVersion") { return .redemption }
        if has("violationClasses") { return .manifest }
        if has("mandateVersion") { return .mandate }
        if has("verdictVersion") { return .verdict }
        if has("consentedManifest") { return .verdictSubmission }
        if has("entryHash") { return .writeLogEntry }
        if has("evidenceSummary") { return .caseNotice }
        if has("authorityContact"), has("verdictRef") { return .banState }
        if has("verdictRef"), has("status") { return .receipt }
        if object.count == 1, let key = object.keys.first,
            ["clear", "caseOpen", "banned", "checkRequired"].contains(key)
        {
            return .gateResult
        }
        return nil
    }
}
