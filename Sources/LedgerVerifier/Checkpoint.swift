public import LedgerFormat
public import LedgerStore

/// What a successful `verify` remembers so the next run re-checks only what is new: the verified tip
/// and the totals and replay state to continue from. Kept in the auditor's state (``AuditorState``),
/// never in the repository.
public struct Checkpoint: Sendable {
    public var tip: ObjectID
    public var trust: [String]
    public var commits: Int
    public var logSize: Int64
    public var logHead: String
    public var recordsByKind: [String: Int]
    public var signaturesChecked: Int
    public var firstCommitTime: Int64?
    public var profilePlatform: String?
    public var lastWriteTime: Instant?
    /// The replay state that grows with the ledger (every binding's record; shared identities, revocations,
    /// attempts, manifests): kept in files of its own beside the checkpoint (``ReplayMaps``), never in the
    /// JSON; without them, continuing rebuilds it from the tree.
    public var maps: ReplayMaps?
    /// Which batch stores each record at the tip: kept in files of its own beside the checkpoint
    /// (`RecordIndex.save(to:tip:durable:)`), never in the JSON; without them, continuing lists every batch
    /// folder.
    public var records: RecordIndex?
    /// Every conduct finding of the history up to the tip (docs/VERIFY.md, "The auditor's state"): conduct is
    /// a property of the history, so a run that continues from this checkpoint reports them again. Kept in a
    /// file of its own beside the checkpoint; nil when that file is missing or names another tip — then the
    /// history's conduct is unknown and the next run checks everything again.
    public var conductFindings: [PolicyFailure]?
    /// The log handovers of the history up to the tip, oldest first (small: one per log key retired).
    public var logHandovers: [LogHandover] = []
    /// The log keys retired by those handovers (``ReplayState/retiredLogs``), kept by the writer's state too.
    public var retiredLogs: [NoteKey] = []
    /// The transparency log's right edge at the tip (`{"size", "peaks": [base64…]}` in the JSON); without
    /// it, continuing re-hashes every file of the history.
    public var transparencyLog: CompactRange?

    public var json: JSONObject {
        var object = JSONObject([
            ("version", .integer(1)), ("tip", .string(tip.hex)), ("trust", .array(trust.map { .string($0) })),
            ("commits", .integer(Int64(commits))), ("logSize", .integer(logSize)), ("logHead", .string(logHead)),
            ("records", .object(JSONObject(recordsByKind.map { ($0.key, .integer(Int64($0.value))) }))),
            ("signaturesChecked", .integer(Int64(signaturesChecked))),
        ])
        if let firstCommitTime { object.set("firstCommitTime", .integer(firstCommitTime)) }
        if let profilePlatform { object.set("profilePlatform", .string(profilePlatform)) }
        if let lastWriteTime { object.set("lastWriteTime", .string(lastWriteTime.rfc3339)) }
        if !logHandovers.isEmpty { object.set("logHandovers", .array(logHandovers.map { .object($0.json) })) }
        if !retiredLogs.isEmpty { object.set("retiredLogs", .array(retiredLogs.map { .string($0.description) })) }
        if let transparencyLog {
            object.set(
                "transparencyLog",
                .object(
                    JSONObject([
                        ("size", .integer(Int64(transparencyLog.size))),
                        ("peaks", .array(transparencyLog.peaks.map { .string(Base64.encode($0.bytes)) })),
                    ])))
        }
        return object
    }

    public init(
        tip: ObjectID, trust: [String], commits: Int, logSize: Int64, logHead: String,
        recordsByKind: [String: Int], signaturesChecked: Int, firstCommitTime: Int64?, profilePlatform: String?
    ) {
        self.tip = tip
        self.trust = trust
        self.commits = commits
        self.logSize = logSize
        self.logHead = logHead
        self.recordsByKind = recordsByKind
        self.signaturesChecked = signaturesChecked
        self.firstCommitTime = firstCommitTime
        self.profilePlatform = profilePlatform
    }

    public init(bytes: [UInt8]) throws(LedgerFormatError) {
        try self.init(json: try CanonicalJSON.parse(bytes, limits: .localState))
    }

    /// A checkpoint from its JSON object (the writer's state file holds one inside its own).
    public init(json object: JSONObject) throws(LedgerFormatError) {
        let reader = FieldReader(object)
        try reader.version("version")
        let tipText = try reader.string("tip")
        guard let tip = ObjectID(hexString: tipText) else {
            throw LedgerFormatError(.invalidHex, "not a commit id", path: "$.tip")
        }
        self.tip = tip
        trust = try reader.stringArray("trust")
        commits = Int(try reader.integer("commits"))
        logSize = try reader.integer("logSize")
        logHead = try reader.string("logHead")
        var records: [String: Int] = [:]
        for member in try reader.object("records").object.members {
            if case .integer(let count) = member.value { records[member.key] = Int(count) }
        }
        recordsByKind = records
        signaturesChecked = Int(try reader.integer("signaturesChecked"))
        firstCommitTime = reader.has("firstCommitTime") ? try reader.integer("firstCommitTime") : nil
        profilePlatform = try reader.optionalString("profilePlatform")
        lastWriteTime = try reader.optionalTimestamp("lastWriteTime")
        if reader.has("retiredLogs") {
            retiredLogs = try reader.stringArray("retiredLogs").map { (text: String) throws(LedgerFormatError) in
                guard let key = NoteKey(text) else {
                    throw LedgerFormatError(.invalidValue, "not a log key", path: "$.retiredLogs")
                }
                return key
            }
        }
        if case .array(let handovers)? = object["logHandovers"] {
            logHandovers = try handovers.map { (value: JSONValue) throws(LedgerFormatError) in
                guard let handover = value.objectValue else {
                    throw LedgerFormatError(.wrongType, "a log handover is an object", path: "$.logHandovers")
                }
                return try LogHandover(json: FieldReader(handover))
            }
        }
        if let log = try reader.optionalObject("transparencyLog") {
            let peaks = try log.stringArray("peaks").compactMap(Base64.decode).filter { $0.count == 32 }.map {
                ContentAddress(bytes: $0)
            }
            transparencyLog = CompactRange(size: Int(try log.integer("size")), peaks: peaks)
        }
    }

    /// The checkpoint of `state` after `tip`, with the run's totals from `summary`: what the state's tip
    /// commit does not say itself (`restore(into:summary:)` puts it back).
    public init(of state: ReplayState, tip: ObjectID, trust: [String], summary: VerificationSummary) {
        self.init(
            tip: tip, trust: trust, commits: state.commitsSeen, logSize: state.logSize,
            logHead: state.logHead, recordsByKind: summary.recordsByKind,
            signaturesChecked: summary.signaturesChecked, firstCommitTime: summary.firstCommitTime,
            profilePlatform: state.profilePlatform)
        lastWriteTime = state.lastWriteTime
        retiredLogs = state.retiredLogs
        maps = state.maps
        records = state.records
        transparencyLog = state.log
    }

    /// Puts what the checkpoint keeps of a replay state into `state`, and its totals into `summary` — the
    /// inverse of ``init(of:tip:trust:summary:)``; a part the checkpoint's files lack (its maps, its record
    /// index, its transparency log) is left as `state` has it.
    func restore(into state: inout ReplayState, summary: inout VerificationSummary) {
        state.commitsSeen = commits
        state.profilePlatform = profilePlatform
        state.lastWriteTime = lastWriteTime
        state.retiredLogs = retiredLogs
        if let maps { state.maps = maps }
        if let records { state.records = records }
        if let transparencyLog { state.log = transparencyLog }
        summary.commits = commits
        summary.recordsByKind = recordsByKind
        summary.logHandovers = logHandovers
        summary.signaturesChecked = signaturesChecked
        summary.firstCommitTime = firstCommitTime
    }
}
