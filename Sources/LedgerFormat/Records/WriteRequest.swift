/// A write to record, as the enforcement backend reports it before the ledger chains it:
/// `{recordedAt, deviceBinding, authorizedBy, caseOpen, banned, outcome[, fieldsWritten]}` — the
/// audit shape without `sequence`, `previousHash` and `entryHash`, which the writer computes.
public struct WriteRequest: Sendable, Equatable {
    public static let fields: Set<String> = [
        "recordedAt", "deviceBinding", "authorizedBy", "caseOpen", "banned",
        "outcome", "fieldsWritten",
    ]

    public let recordedAt: String
    public let deviceBinding: WireString
    public let authorizedBy: WireString
    public let caseOpen: Bool
    public let banned: Bool
    public let outcome: String
    public let fieldsWritten: String?

    /// Field by field, text by its bytes (docs/FORMAT.md, "Strings compare by bytes").
    public static func == (left: WriteRequest, right: WriteRequest) -> Bool {
        left.recordedAt.hasSameBytes(as: right.recordedAt) && left.deviceBinding == right.deviceBinding
            && left.authorizedBy == right.authorizedBy && left.caseOpen == right.caseOpen
            && left.banned == right.banned && left.outcome.hasSameBytes(as: right.outcome)
            && left.fieldsWritten.hasSameBytes(as: right.fieldsWritten)
    }

    public init(json: JSONObject, path: String = "$") throws(LedgerFormatError) {
        let reader = FieldReader(json, path: path)
        try reader.rejectUnknownKeys(allowed: Self.fields)
        try self.init(reading: reader)
    }

    /// Reads the request fields — the part of a write-log entry its chain hash covers — from `reader`
    /// without judging other keys (``WriteLogEntry`` reads its entries through this, so the rules for
    /// these fields live once).
    init(reading reader: FieldReader) throws(LedgerFormatError) {
        recordedAt = try reader.string("recordedAt")
        _ = try reader.timestamp("recordedAt")
        deviceBinding = try reader.nonEmptyWireString("deviceBinding")
        authorizedBy = try reader.nonEmptyWireString("authorizedBy")
        caseOpen = try reader.bool("caseOpen")
        banned = try reader.bool("banned")
        outcome = try reader.string("outcome")
        guard outcome.hasSameBytes(as: "ok") || outcome.hasBytePrefix("failed: ") else {
            throw LedgerFormatError(
                .invalidValue, "outcome must be \"ok\" or \"failed: <reason>\"",
                path: reader.fieldPath("outcome"))
        }
        fieldsWritten = try reader.optionalString("fieldsWritten")
    }

    /// The request an entry was chained from: its fields without `sequence` and the chain hashes.
    public init(of entry: WriteLogEntry) {
        recordedAt = entry.recordedAtText
        deviceBinding = entry.deviceBinding
        authorizedBy = entry.authorizedBy
        caseOpen = entry.caseOpen
        banned = entry.banned
        outcome = entry.outcome
        fieldsWritten = entry.fieldsWritten
    }

    /// The entry this request becomes at `sequence` after `previousHash`.
    public func entry(sequence: Int64, previousHash: String) throws(LedgerFormatError) -> WriteLogEntry {
        try WriteLogEntry(
            sequence: sequence, recordedAt: recordedAt, deviceBinding: deviceBinding, authorizedBy: authorizedBy,
            caseOpen: caseOpen, banned: banned, outcome: outcome, fieldsWritten: fieldsWritten,
            previousHash: previousHash)
    }

    /// The canonical JSON of this request.
    public var json: JSONObject {
        var object = JSONObject([
            ("recordedAt", .string(recordedAt)), ("deviceBinding", .string(deviceBinding.text)),
            ("authorizedBy", .string(authorizedBy.text)), ("caseOpen", .bool(caseOpen)), ("banned", .bool(banned)),
            ("outcome", .string(outcome)),
        ])
        if let fieldsWritten { object.set("fieldsWritten", .string(fieldsWritten)) }
        return object
    }

    /// SHA-256 over the requests' canonical JSON lines, in order: the identity of one batch of writes.
    /// `Onym-Ledger-Writes`: SHA-256 over the requests' canonical JSON, each followed by `\n`, in order —
    /// for a commit, the requests of every entry it adds, in sequence order (docs/FORMAT.md, "Commits").
    public static func digest(_ requests: [WriteRequest]) -> ContentAddress {
        var encoder = CanonicalEncoder(capacity: requests.count * 256)
        for request in requests {
            request.write(into: &encoder)
            encoder.writeLineBreak()
        }
        return SHA256.hash(encoder.output)
    }

    /// Writes the canonical bytes of ``json`` without building the object: its members in their keys' byte
    /// order (every commit's digest is worked out again by the verifier, one request a write).
    func write(into encoder: inout CanonicalEncoder) {
        if let fieldsWritten {
            encoder.writeMembers([
                "authorizedBy": .string(authorizedBy.text), "banned": .bool(banned), "caseOpen": .bool(caseOpen),
                "deviceBinding": .string(deviceBinding.text), "fieldsWritten": .string(fieldsWritten),
                "outcome": .string(outcome), "recordedAt": .string(recordedAt),
            ])
        } else {
            encoder.writeMembers([
                "authorizedBy": .string(authorizedBy.text), "banned": .bool(banned), "caseOpen": .bool(caseOpen),
                "deviceBinding": .string(deviceBinding.text), "outcome": .string(outcome),
                "recordedAt": .string(recordedAt),
            ])
        }
    }

    /// Whether `object` has the write-request shape (and no chain fields).
    public static func matches(_ object: JSONObject) -> Bool {
        object["recordedAt"] != nil && object["authorizedBy"] != nil && object["entryHash"] == nil
    }

    /// More than one non-empty line, each starting with `{`: newline-delimited write requests.
    public static func looksLikeLines(_ bytes: [UInt8]) -> Bool {
        let lines = bytes.split(separator: 0x0A).filter { line in
            line.contains { $0 != 0x20 && $0 != 0x0D && $0 != 0x09 }
        }
        return lines.count > 1 && lines.allSatisfy { $0.first { $0 != 0x20 && $0 != 0x09 } == UInt8(ascii: "{") }
    }

    /// Every request of a write-requests file (one JSON object per line; blank lines are skipped).
    /// - Throws: the first line that does not decode, its error's path naming the line (`line 3`).
    public static func lines(_ bytes: [UInt8]) throws(LedgerFormatError) -> [WriteRequest] {
        var requests: [WriteRequest] = []
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            guard line.contains(where: { $0 != 0x20 && $0 != 0x0D && $0 != 0x09 }) else { continue }
            do {
                requests.append(try WriteRequest(json: try CanonicalJSON.parse(Array(line))))
            } catch {
                throw error.nested(under: "line \(index + 1)")
            }
        }
        return requests
    }
}

/// The reference's audit response (`GET /v1/write-log`, reference §3.15):
/// `{chainIntact, brokenAtSequence, entries}`. Only the first 1 000 rows are returned, so
/// re-importing an overlapping export must be a no-op for rows already in the ledger.
public struct AuditExport: Sendable {
    public let chainIntact: Bool?
    public let entries: [WriteLogEntry]

    public init(json: JSONObject) throws(LedgerFormatError) {
        let reader = FieldReader(json)
        try reader.rejectUnknownKeys(allowed: ["chainIntact", "brokenAtSequence", "entries"])
        chainIntact = reader.has("chainIntact") ? try reader.bool("chainIntact") : nil
        // The reference's `brokenAtSequence: Option<u64>`: null, or where its own check found a break.
        if reader.has("brokenAtSequence"), try reader.value("brokenAtSequence") != .null {
            guard try reader.integer("brokenAtSequence") >= 1 else {
                throw LedgerFormatError(
                    .invalidValue, "brokenAtSequence is a sequence (1 or more)",
                    path: reader.fieldPath("brokenAtSequence"))
            }
        }
        var entries: [WriteLogEntry] = []
        for (index, element) in try reader.array("entries").enumerated() {
            guard case .object(let object) = element else {
                throw LedgerFormatError(.wrongType, "expected a write-log entry object", path: "$.entries[\(index)]")
            }
            do {
                entries.append(try WriteLogEntry(json: object))
            } catch {
                throw error.nested(under: "$.entries[\(index)]")
            }
        }
        self.entries = entries
    }

    public static func matches(_ object: JSONObject) -> Bool {
        if case .array = object["entries"] { return true }
        return false
    }
}
