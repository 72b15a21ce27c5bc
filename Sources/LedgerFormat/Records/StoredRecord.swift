/// A record the ledger stores by content address, at `batches/…/<N>/<folder>/a/<address>.json` (one
/// record protocol). Each kind is one type conforming to it, declared in one file of `Records/Kinds/` —
/// its name, code, folder and schema, how it decodes from the stored bytes and how it is addressed, the
/// records it names and the signatures it carries (``RecordDeclaration``), the times it states
/// (``TimedRecord``), what it says (``StoredRecord/reading``) — and one line in ``StoredRecords/kinds``.
public protocol StoredRecord: RecordDeclaration, TimedRecord, AnyObject {
    /// The kind's name (`mandate`): in summaries, `inspect` and `verify`'s record counts.
    static var kindName: String { get }
    /// The kind's stable code, like an ASN.1 tag: how saved tables (the record index) name the kind. Never a
    /// position in a list — a kind added anywhere must not remap what was saved — and never reused.
    static var code: UInt8 { get }
    /// The folder its files live in (`mandates`).
    static var folder: String { get }
    /// The fields that tell an input object is this kind (`mandateVersion`): required by its schema, and
    /// not all present in any other kind's (``RecordKind/matches(_:)``).
    static var tellingFields: [String] { get }
    /// Its JSON Schema in `schemas/` (`mandate.schema.json`).
    static var schema: String { get }
    /// Decodes the stored bytes, already parsed into `json` (a caller that has parsed them — the
    /// loader checking canonical form, the importer recognizing the kind — does not parse them again).
    init(storedBytes: [UInt8], json: JSONObject) throws(LedgerFormatError)
    /// The same, given the canonical encoding of `json` already at hand (the loader has it from checking the
    /// stored bytes): a signed kind cuts its signing bytes from it instead of encoding `json` again.
    init(storedBytes: [UInt8], json: JSONObject, encoding: CanonicalEncoding) throws(LedgerFormatError)
    /// The bytes the ledger stores: canonical JSON (a manifest: its exact published bytes).
    var storedBytes: [UInt8] { get }
    /// The content address its file is named by.
    var address: ContentAddress { get }
    /// Whether the name is the record's own content address (docs/FORMAT.md "Paths"): true for every kind
    /// but the receipt, which is "named by the verdict it receipts" — a bare address finds the record whose
    /// content it addresses, never a file merely named by it (`show`, `prove`).
    static var isNamedByItsOwnContent: Bool { get }
    /// What the record says, in a reader's words (``RecordFacts``): the report's record pages and
    /// `textconv` render it. Every kind gives one.
    var reading: RecordFacts { get }
}

extension StoredRecord {
    public static var schema: String { kindName + ".schema.json" }
    /// A kind states no time the window rule constrains unless it says so (a mandate's `acceptedAt`, a
    /// receipt's `receivedAt`, …); a verdict's `decidedAt` is the authority's claim, not when the vendor knew it.
    public var timedFields: [TimeWindow.Field] { [] }
    public static var isNamedByItsOwnContent: Bool { true }

    public init(storedBytes: [UInt8], json: JSONObject, encoding: CanonicalEncoding) throws(LedgerFormatError) {
        try self.init(storedBytes: storedBytes, json: json)
    }

    /// Decodes the stored bytes: the strict parse and the kind's field rules.
    public init(storedBytes: [UInt8]) throws(LedgerFormatError) {
        try self.init(storedBytes: storedBytes, json: try CanonicalJSON.parse(storedBytes))
    }
}

/// The registry of stored kinds: adding a kind is one line here (with its type, schema and policy).
public enum StoredRecords {
    public static let kinds: [any StoredRecord.Type] = [
        EnforcementProfile.self, AuthorityManifest.self, Mandate.self, Verdict.self, VerdictReceipt.self,
        StatusAttempt.self, CompromiseReport.self, RevocationDetermination.self, Grant.self, Redemption.self,
    ]

    /// The codes of the kinds a record may name in an earlier commit: the targets of references of scope
    /// ``RecordReference/Scope/ledger`` — save where the target itself must find the referring record in its
    /// own commit (a receipt names its verdict, and a verdict's receipt arrives with it: reference §3.6), so
    /// in a valid ledger that reference never leaves the commit. The kinds worth keeping at hand once read
    /// (`RecordCache.keep(_:)`): a later commit may ask for them again.
    public static let referencedAcrossCommits: Set<UInt8> = {
        let declarations: [any RecordDeclaration.Type] = kinds + [DetachedManifestSignature.self]
        var codes: Set<UInt8> = []
        for source in declarations {
            for reference in source.references where reference.scope == .ledger {
                let pairedInCommit = reference.target.references.contains {
                    $0.scope == .sameCommit && ObjectIdentifier($0.target) == ObjectIdentifier(source)
                }
                if !pairedInCommit { codes.insert(reference.target.code) }
            }
        }
        return codes
    }()

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
