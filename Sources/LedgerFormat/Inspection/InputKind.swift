/// The kinds of input file `append` accepts and `inspect` checks, recognized by shape: one rule for both
/// verbs (issue 17: inspect and append agree).
public enum InputKind: String, CaseIterable, Sendable {
    case profile, manifest, mandate, verdict
    case verdictSubmission = "verdict-submission"
    case receipt
    case auditExport = "audit-export"
    case writeLogEntry = "write-log-entry"
    case writeRequests = "write-requests"
    case statusAttempt = "status-attempt"
    case compromiseReport = "compromise-report"
    case revocation

    /// Recognizes an input file: newline-delimited objects are write requests; otherwise the parsed
    /// object decides — `entries` an audit export, a write without chain hashes a write request, else the
    /// record kind its distinguishing field names (``RecordKind/recognize(_:)``).
    /// - Returns: the kind, and the parsed object (nil for newline-delimited write requests).
    /// - Throws: ``LedgerFormatError`` when the bytes are not JSON, or no kind matches.
    public static func recognize(_ bytes: [UInt8], as kind: InputKind? = nil) throws(LedgerFormatError) -> (
        InputKind, JSONObject?
    ) {
        if kind == .writeRequests || (kind == nil && WriteRequest.looksLikeLines(bytes)) {
            return (.writeRequests, nil)
        }
        let object = try CanonicalJSON.parse(bytes)
        if let kind { return (kind, object) }
        if AuditExport.matches(object) { return (.auditExport, object) }
        if WriteRequest.matches(object) { return (.writeRequests, object) }
        guard let recognized = RecordKind.recognize(object) else {
            throw LedgerFormatError(.unknownKind, "no input kind matches this object's fields (name one with --kind)")
        }
        guard let input = InputKind(rawValue: recognized.rawValue) else {
            throw LedgerFormatError(
                .unknownKind, "a \(recognized.rawValue) is a gate answer, not something a ledger records")
        }
        return (input, object)
    }

    /// The stored record kind this input is (nil for write requests and audit exports, which become
    /// write-log entries).
    public var recordKind: RecordKind? { RecordKind(rawValue: rawValue) }
}
