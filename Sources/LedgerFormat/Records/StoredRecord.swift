/// A record the ledger stores by content address, at `batches/…/<N>/<folder>/a/<address>.json` (one
/// record protocol). Each kind is one type conforming to it — its name, its folder, its schema, how it
/// decodes from the stored bytes and how it is addressed — and one line in ``StoredRecords/kinds``.
public protocol StoredRecord: Sendable {
    /// The kind's name (`mandate`): in summaries, `inspect` and `verify`'s record counts.
    static var kindName: String { get }
    /// The kind's stable code, like an ASN.1 tag: how saved tables (the record index) name the kind. Never a
    /// position in a list — a kind added anywhere must not remap what was saved — and never reused.
    static var code: UInt8 { get }
    /// The folder its files live in (`mandates`).
    static var folder: String { get }
    /// Its JSON Schema in `schemas/` (`mandate.schema.json`).
    static var schema: String { get }
    /// Decodes the stored bytes, already parsed into `json` (a caller that has parsed them — the
    /// loader checking canonical form, the importer recognizing the kind — does not parse them again).
    init(storedBytes: [UInt8], json: JSONObject) throws(LedgerFormatError)
    /// The bytes the ledger stores: canonical JSON (a manifest: its exact published bytes).
    var storedBytes: [UInt8] { get }
    /// The content address its file is named by.
    var address: ContentAddress { get }
    /// Whether the name is the record's own content address (docs/FORMAT.md "Paths"): true for every kind
    /// but the receipt, which is "named by the verdict it receipts" — a bare address finds the record whose
    /// content it addresses, never a file merely named by it (`show`, `prove`).
    static var isNamedByItsOwnContent: Bool { get }
}

extension StoredRecord {
    public static var schema: String { kindName + ".schema.json" }
    public static var isNamedByItsOwnContent: Bool { true }

    /// Decodes the stored bytes: the strict parse and the kind's field rules.
    public init(storedBytes: [UInt8]) throws(LedgerFormatError) {
        try self.init(storedBytes: storedBytes, json: try CanonicalJSON.parse(storedBytes))
    }
}

/// The registry of stored kinds: adding a kind is one line here (with its type, schema and policy).
public enum StoredRecords {
    public static let kinds: [any StoredRecord.Type] = [
        EnforcementProfile.self, AuthorityManifest.self, Mandate.self, Verdict.self, VerdictReceipt.self,
        StatusAttempt.self, CompromiseReport.self, RevocationDetermination.self,
    ]

    /// The kind with a stable ``StoredRecord/code``.
    public static func kind(code: UInt8) -> (any StoredRecord.Type)? {
        kinds.first { $0.code == code }
    }

    /// The kind whose files live in `folder`.
    public static func kind(inFolder folder: String) -> (any StoredRecord.Type)? {
        kinds.first { $0.folder == folder }
    }
}

/// A JSON record stored as its canonical bytes.
protocol CanonicalStoredRecord: StoredRecord {
    init(json: JSONObject) throws(LedgerFormatError)
    var json: JSONObject { get }
}

extension CanonicalStoredRecord {
    public init(storedBytes: [UInt8], json: JSONObject) throws(LedgerFormatError) { try self.init(json: json) }
    public var storedBytes: [UInt8] { CanonicalJSON.encode(json) }
}

extension EnforcementProfile: CanonicalStoredRecord {
    public static let kindName = "profile"
    public static let code: UInt8 = 0
    public static let folder = "profiles"
    public var address: ContentAddress { ref }
}

extension AuthorityManifest: StoredRecord {
    public static let kindName = "manifest"
    public static let code: UInt8 = 1
    public static let folder = "manifests"
    /// A manifest is stored and hashed as the exact bytes its authority published.
    public init(storedBytes: [UInt8], json: JSONObject) throws(LedgerFormatError) {
        try self.init(rawBytes: storedBytes)
    }
    public var storedBytes: [UInt8] { rawBytes }
    public var address: ContentAddress { hash }
}

extension Mandate: CanonicalStoredRecord {
    public static let kindName = "mandate"
    public static let code: UInt8 = 2
    public static let folder = "mandates"
    public var address: ContentAddress { ref }
}

extension Verdict: CanonicalStoredRecord {
    public static let kindName = "verdict"
    public static let code: UInt8 = 3
    public static let folder = "verdicts"
    public var address: ContentAddress { ref }
}

extension VerdictReceipt: CanonicalStoredRecord {
    public static let kindName = "receipt"
    public static let code: UInt8 = 4
    public static let folder = "receipts"
    /// A receipt is named by the verdict it receipts: at most one per verdict, found without an index.
    public var address: ContentAddress { verdictRef }
    public static var isNamedByItsOwnContent: Bool { false }
}

extension StatusAttempt: CanonicalStoredRecord {
    public static let kindName = "status-attempt"
    public static let code: UInt8 = 5
    public static let folder = "status-attempts"
    public var address: ContentAddress { ref }
}

extension CompromiseReport: CanonicalStoredRecord {
    public static let kindName = "compromise-report"
    public static let code: UInt8 = 6
    public static let folder = "compromise-reports"
    public var address: ContentAddress { ref }
}

extension RevocationDetermination: CanonicalStoredRecord {
    public static let kindName = "revocation"
    public static let code: UInt8 = 7
    public static let folder = "revocations"
    public var address: ContentAddress { ref }
}
