public import LedgerFormat
public import LedgerStore

/// One rule a ledger breaks: which policy, where (commit, path, record) and why.
public struct PolicyFailure: Sendable, Equatable, CustomStringConvertible {
    /// What a finding says about the ledger (docs/VERIFY.md, "Two kinds of findings").
    public enum Kind: String, Sendable {
        /// The history is not what the key holders published: forged, rewritten, malformed. `REJECTED`.
        case integrity
        /// The history is authentic and shows the vendor broke the rules. `VERIFIED WITH FINDINGS`.
        case conduct
        /// The history is authentic, but not (yet) cosigned by the witnesses the auditor requires
        /// (`verify --witness … --quorum K`). `VERIFIED, NOT WITNESSED`.
        case witness
    }

    /// For a conduct finding about a write: which entry, when, what was written and what the rules gave.
    public struct WriteDetail: Sendable, Equatable {
        public let sequence: Int64
        public let recordedAt: Instant
        public let binding: WireString
        public let written: String
        public let rulesGive: String

        public init(sequence: Int64, recordedAt: Instant, binding: WireString, written: String, rulesGive: String) {
            self.sequence = sequence
            self.recordedAt = recordedAt
            self.binding = binding
            self.written = written
            self.rulesGive = rulesGive
        }

        /// A detail as `json` wrote it (the auditor's state keeps conduct findings between runs).
        public init(json: FieldReader) throws(LedgerFormatError) {
            self.init(
                sequence: try json.integer("sequence"), recordedAt: try json.timestamp("recordedAt"),
                binding: try json.wireString("deviceBinding"), written: try json.string("written"),
                rulesGive: try json.string("rulesGive"))
        }

        public var json: JSONObject {
            JSONObject([
                ("sequence", .integer(sequence)), ("recordedAt", .string(recordedAt.rfc3339)),
                ("deviceBinding", .string(binding.text)), ("written", .string(written)),
                ("rulesGive", .string(rulesGive)),
            ])
        }
    }

    public let policy: String
    public let kind: Kind
    public let commit: ObjectID?
    public let path: String?
    public let record: String?
    public let reason: String
    public let write: WriteDetail?

    public init(
        policy: String, kind: Kind = .integrity, commit: ObjectID?, path: String? = nil, record: String? = nil,
        reason: String, write: WriteDetail? = nil
    ) {
        self.policy = policy
        self.kind = kind
        self.commit = commit
        self.path = path
        self.record = record
        self.reason = reason
        self.write = write
    }

    /// `Policy: commit path [record]: reason` — the policy name first.
    public var description: String {
        var location: [String] = []
        if let commit { location.append(commit.short) }
        if let path { location.append(path) }
        if let record { location.append("[\(record)]") }
        return "\(policy): \(location.joined(separator: " "))\(location.isEmpty ? "" : ": ")\(reason)"
    }

    /// A finding as ``json`` wrote it: the auditor's state keeps every conduct finding of the verified
    /// history, since conduct is a property of the history, not of the run that found it.
    public init(json object: JSONObject) throws(LedgerFormatError) {
        let reader = FieldReader(object)
        guard let kind = Kind(rawValue: try reader.string("kind")) else {
            throw LedgerFormatError(.invalidValue, "not a finding kind", path: "$.kind")
        }
        var commit: ObjectID?
        if let hex = try reader.optionalString("commit") {
            guard let id = ObjectID(hexString: hex) else {
                throw LedgerFormatError(.invalidHex, "not a commit id", path: "$.commit")
            }
            commit = id
        }
        self.init(
            policy: try reader.string("policy"), kind: kind, commit: commit, path: try reader.optionalString("path"),
            record: try reader.optionalString("record"), reason: try reader.string("reason"),
            write: try reader.optionalObject("write").map { (detail) throws(LedgerFormatError) in
                try WriteDetail(json: detail)
            })
    }

    public var json: JSONObject {
        var object = JSONObject([
            ("policy", .string(policy)), ("kind", .string(kind.rawValue)), ("reason", .string(reason)),
        ])
        if let commit { object.set("commit", .string(commit.hex)) }
        if let path { object.set("path", .string(path)) }
        if let record { object.set("record", .string(record)) }
        if let write { object.set("write", .object(write.json)) }
        return object
    }
}
