/// Every JSON shape onym-ledger reads — the stored kinds (``StoredRecords``) and the wire-only shapes
/// (verdict submissions, write-log entries, gate answers) — recognized by shape: the one place a new kind
/// states the field that tells it apart.
public enum RecordKind: String, Sendable, CaseIterable {
    case profile
    case manifest
    case mandate
    case verdict
    case verdictSubmission = "verdict-submission"
    case receipt
    case writeLogEntry = "write-log-entry"
    case caseNotice = "case-notice"
    case banState = "ban-state"
    case gateResult = "gate-result"
    case statusAttempt = "status-attempt"
    case compromiseReport = "compromise-report"
    case revocation

    /// Recognizes a record by its distinguishing fields; nil when no kind matches.
    ///
    /// Each kind has a field no other kind has, so recognition is unambiguous:
    /// `profileVersion`, `violationClasses`, `mandateVersion`, `verdictVersion`,
    /// `consentedManifest`, `entryHash`, `noticeVersion`/`evidenceSummary`, `authorityContact`;
    /// a receipt is exactly `{verdictRef, status, receivedAt}`; a gate result is one of four tags.
    public static func recognize(_ object: JSONObject) -> RecordKind? {
        func has(_ key: String) -> Bool { object[key] != nil }
        if has("profileVersion") { return .profile }
        if has("attemptVersion") { return .statusAttempt }
        if has("compromiseReportVersion") { return .compromiseReport }
        if has("revocationVersion") { return .revocation }
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
