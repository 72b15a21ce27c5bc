/// One DeviceCheck write attempt in the reference audit shape (reference §3.13–§3.15):
/// the requested aggregate bits, the outcome, and the tamper-evident chain hashes.
///
/// A class of constants, not a struct: every policy that reads the log binds each entry, and a copy of seven
/// strings was seven retains and releases a binding (docs/DECISIONS.md, "Verdict facts and write-log
/// entries are classes"). Equal when every field is.
public final class WriteLogEntry: Sendable, Equatable {
    public static let genesis = "genesis"
    public static let fields: Set<String> = [
        "sequence", "recordedAt", "deviceBinding", "authorizedBy", "caseOpen", "banned", "outcome",
        "previousHash", "entryHash", "fieldsWritten",
    ]

    public let sequence: Int64
    /// The timestamp text exactly as recorded (the chain hashes the text, not the instant).
    public let recordedAtText: String
    public let recordedAt: Instant
    public let deviceBinding: WireString
    public let authorizedBy: WireString
    public let caseOpen: Bool
    public let banned: Bool
    /// `ok` or `failed: <error text>`.
    public let outcome: String
    /// Android's extra chain field (reference §3.14): JSON text of the values actually sent.
    public let fieldsWritten: String?
    public let previousHash: String
    public let entryHash: String

    /// Field by field, text by its bytes (docs/FORMAT.md, "Strings compare by bytes"): an entry whose outcome
    /// spells `é` decomposed is not the stored entry that spells it precomposed.
    public static func == (left: WriteLogEntry, right: WriteLogEntry) -> Bool {
        left === right
            || (left.sequence == right.sequence && left.recordedAtText.hasSameBytes(as: right.recordedAtText)
                && left.recordedAt == right.recordedAt && left.deviceBinding == right.deviceBinding
                && left.authorizedBy == right.authorizedBy && left.caseOpen == right.caseOpen
                && left.banned == right.banned && left.outcome.hasSameBytes(as: right.outcome)
                && left.fieldsWritten.hasSameBytes(as: right.fieldsWritten)
                && left.previousHash.hasSameBytes(as: right.previousHash)
                && left.entryHash.hasSameBytes(as: right.entryHash))
    }

    public init(json: JSONObject) throws(LedgerFormatError) {
        let reader = FieldReader(json)
        try reader.rejectUnknownKeys(allowed: Self.fields)
        sequence = try reader.integer("sequence")
        guard sequence >= 1 else {
            throw LedgerFormatError(.invalidValue, "sequence starts at 1", path: "$.sequence")
        }
        let request = try WriteRequest(reading: reader)
        recordedAtText = request.recordedAt
        recordedAt = try Instant.parse(recordedAtText, field: "$.recordedAt")
        deviceBinding = request.deviceBinding
        authorizedBy = request.authorizedBy
        caseOpen = request.caseOpen
        banned = request.banned
        outcome = request.outcome
        fieldsWritten = request.fieldsWritten
        previousHash = try reader.string("previousHash")
        guard previousHash == Self.genesis || ContentAddress(hex: previousHash) != nil else {
            throw LedgerFormatError(
                .invalidHex, "previousHash must be \"genesis\" or 64 lowercase hex digits",
                path: "$.previousHash")
        }
        entryHash = try reader.contentAddress("entryHash").hex
    }

    /// Builds an entry and computes its chain hash.
    public init(
        sequence: Int64, recordedAt: String, deviceBinding: WireString, authorizedBy: WireString, caseOpen: Bool,
        banned: Bool, outcome: String, fieldsWritten: String? = nil, previousHash: String
    ) throws(LedgerFormatError) {
        self.sequence = sequence
        self.recordedAtText = recordedAt
        self.recordedAt = try Instant.parse(recordedAt, field: "$.recordedAt")
        self.deviceBinding = deviceBinding
        self.authorizedBy = authorizedBy
        self.caseOpen = caseOpen
        self.banned = banned
        self.outcome = outcome
        self.fieldsWritten = fieldsWritten
        self.previousHash = previousHash
        self.entryHash = Self.chainHash(
            previous: previousHash, recordedAt: recordedAt, deviceBinding: deviceBinding.text,
            authorizedBy: authorizedBy.text,
            caseOpen: caseOpen, banned: banned, fieldsWritten: fieldsWritten, outcome: outcome)
    }

    /// The reference chain hash (`store.rs::append_write_log`): lowercase hex SHA-256 of
    /// `previous|recordedAt|deviceBinding|authorizedBy|caseOpen|banned|outcome`, booleans as
    /// `true`/`false`, no escaping of `|`; Android inserts `fieldsWritten` before `outcome`.
    public static func chainHash(
        previous: String, recordedAt: String, deviceBinding: String, authorizedBy: String, caseOpen: Bool,
        banned: Bool, fieldsWritten: String? = nil, outcome: String
    ) -> String {
        // The joined text built as bytes, without an array of parts and a joined string (every entry's
        // check runs this on the judging thread).
        var text: [UInt8] = []
        text.reserveCapacity(
            previous.utf8.count + recordedAt.utf8.count + deviceBinding.utf8.count + authorizedBy.utf8.count
                + (fieldsWritten?.utf8.count ?? 0) + outcome.utf8.count + 20)
        for part in [previous, recordedAt, deviceBinding, authorizedBy] {
            text.append(contentsOf: part.utf8)
            text.append(UInt8(ascii: "|"))
        }
        text.append(contentsOf: (caseOpen ? "true|" : "false|").utf8)
        text.append(contentsOf: (banned ? "true|" : "false|").utf8)
        if let fieldsWritten {
            text.append(contentsOf: fieldsWritten.utf8)
            text.append(UInt8(ascii: "|"))
        }
        text.append(contentsOf: outcome.utf8)
        return SHA256.hash(text).hex
    }

    /// The hash this entry's fields produce; equal to ``entryHash`` for an untampered entry.
    public var recomputedHash: String {
        Self.chainHash(
            previous: previousHash, recordedAt: recordedAtText, deviceBinding: deviceBinding.text,
            authorizedBy: authorizedBy.text, caseOpen: caseOpen, banned: banned, fieldsWritten: fieldsWritten,
            outcome: outcome)
    }

    public var succeeded: Bool { outcome.hasSameBytes(as: "ok") }

    public var json: JSONObject {
        var object = JSONObject([
            ("sequence", .integer(sequence)), ("recordedAt", .string(recordedAtText)),
            ("deviceBinding", .string(deviceBinding.text)), ("authorizedBy", .string(authorizedBy.text)),
            ("caseOpen", .bool(caseOpen)), ("banned", .bool(banned)), ("outcome", .string(outcome)),
            ("previousHash", .string(previousHash)), ("entryHash", .string(entryHash)),
        ])
        if let fieldsWritten { object.set("fieldsWritten", .string(fieldsWritten)) }
        return object
    }
}
