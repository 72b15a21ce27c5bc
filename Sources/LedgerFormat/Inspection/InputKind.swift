/// The kinds of input file `append` accepts and `inspect` checks, recognized by shape: one rule for both
/// verbs (inspect and append agree). Every stored kind (``StoredRecords/kinds``) is one, named as
/// the kind names itself; four more exist only as input.
public struct InputKind: Sendable, Equatable, CustomStringConvertible {
    /// The name `--kind` takes (`mandate`, `write-requests`).
    public let rawValue: String
    /// The stored kind this input is, when it is one.
    public let stored: (any StoredRecord.Type)?

    /// The record shape this input is, when it is one object of a ``RecordKind`` (not a list of writes or
    /// an export): how a recognized shape finds its input kind, without matching names.
    public let shape: RecordKind?

    private init(_ name: String) {
        rawValue = name
        stored = nil
        shape = nil
    }

    private init(shape: RecordKind) {
        rawValue = shape.rawValue
        stored = shape.stored
        self.shape = shape
    }

    public static func == (lhs: InputKind, rhs: InputKind) -> Bool { lhs.rawValue == rhs.rawValue }
    public var description: String { rawValue }

    /// A verdict with its consented manifest (reference §3.6).
    public static let verdictSubmission = InputKind(shape: .verdictSubmission)
    /// The reference's write-log export, entries with their chain hashes.
    public static let auditExport = InputKind("audit-export")
    /// One write-log entry with its chain hashes.
    public static let writeLogEntry = InputKind(shape: .writeLogEntry)
    /// Writes without chain fields, one JSON object per line; the writer chains them.
    public static let writeRequests = InputKind("write-requests")

    public static func storedKind(_ kind: any StoredRecord.Type) -> InputKind {
        InputKind(shape: RecordKind(stored: kind))
    }
    public static var manifest: InputKind { storedKind(AuthorityManifest.self) }

    public static var allCases: [InputKind] {
        StoredRecords.kinds.map(storedKind) + [verdictSubmission, auditExport, writeLogEntry, writeRequests]
    }

    public init?(rawValue: String) {
        guard let kind = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = kind
    }

    /// Recognizes an input file: newline-delimited objects are write requests; otherwise the parsed
    /// object decides — `entries` an audit export, a write without chain hashes a write request, else the
    /// record kind whose telling fields it has (``RecordKind/matches(_:)``): none, or more than one, is
    /// an error that asks for `--kind`.
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
        let matching = RecordKind.matches(object)
        guard let recognized = matching.first else {
            throw LedgerFormatError(.unknownKind, "no input kind matches this object's fields (name one with --kind)")
        }
        guard matching.count == 1 else {
            let names = matching.map(\.rawValue).joined(separator: " and ")
            throw LedgerFormatError(
                .unknownKind, "this object has the telling fields of \(names) (name one with --kind)")
        }
        guard let input = allCases.first(where: { $0.shape == recognized }) else {
            throw LedgerFormatError(
                .unknownKind, "a \(recognized.rawValue) is a gate answer, not something a ledger records")
        }
        return (input, object)
    }
}
