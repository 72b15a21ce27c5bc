public import LedgerFormat
public import LedgerStore

/// What a verification run saw, verified or not.
public struct VerificationSummary: Sendable {
    public init() {}

    public var commits = 0
    /// Commits checked in this run (fewer than ``commits`` for an incremental run).
    public var commitsChecked = 0
    public var recordsByKind: [String: Int] = [:]
    public var writeEntries: Int64 = 0
    /// Signatures of the whole ledger (the remembered count plus this run's on an incremental run).
    public var signaturesChecked = 0
    /// Signatures checked in this run.
    public var signaturesCheckedThisRun = 0
    /// Bytes of record files read and checked in this run.
    public var bytesChecked = 0
    public var firstCommitTime: Int64?
    public var lastCommitTime: Int64?
    public var tip: ObjectID?
    public var logHead = WriteLogEntry.genesis
    public var ledgerId: String?
    public var interface: String?
    public var appleAccount: LedgerDescriptor.AppleAccount?
    public var signers: [String] = []
    /// The transparency log at the tip: its verifier key, size and root (FORMAT "Transparency").
    public var transparencyLog: (key: NoteKey, size: Int, root: Merkle.Hash)?
    /// Device bindings named by mandates of several identities, with each identity's acceptance.
    public var sharedBindings: [WireString: [BindingIdentities.Identity]] = [:]
    /// The log handovers of the history, oldest first (the remembered ones and this run's).
    public var logHandovers: [LogHandover] = []
    /// The commit an incremental run started after, if any.
    public var resumedFrom: ObjectID?
    /// True when the run started `--since` a commit without remembered totals: then ``recordsByKind``,
    /// ``signaturesChecked`` and the time span cover only the commits checked, while ``commits``,
    /// ``writeEntries`` and the log cover the whole history (`"countsCover": "checked range"` in JSON).
    public var countsCoverCheckedRangeOnly = false

    public var json: JSONObject {
        var object = JSONObject([
            ("commits", .integer(Int64(commits))), ("commitsChecked", .integer(Int64(commitsChecked))),
            (
                "records",
                .object(
                    JSONObject(recordsByKind.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) }))
            ),
            ("writeEntries", .integer(writeEntries)), ("signaturesChecked", .integer(Int64(signaturesChecked))),
            ("signaturesCheckedThisRun", .integer(Int64(signaturesCheckedThisRun))),
            ("bytesChecked", .integer(Int64(bytesChecked))),
            ("logHead", .string(logHead)), ("signers", .array(signers.map { .string($0) })),
        ])
        if let tip { object.set("tip", .string(tip.hex)) }
        if let firstCommitTime { object.set("firstCommitAt", .string(Instant(seconds: firstCommitTime).rfc3339)) }
        if let lastCommitTime { object.set("lastCommitAt", .string(Instant(seconds: lastCommitTime).rfc3339)) }
        if let ledgerId { object.set("ledgerId", .string(ledgerId)) }
        if let interface { object.set("interface", .string(interface)) }
        if let appleAccount {
            object.set("appleAccount", .object(appleAccount.json))
        } else {
            object.set("appleAccount", .null)
        }
        if let resumedFrom { object.set("resumedFrom", .string(resumedFrom.hex)) }
        object.set("logHandovers", .array(logHandovers.map { .object($0.json) }))
        object.set("countsCover", .string(countsCoverCheckedRangeOnly ? "checked range" : "history"))
        if let transparencyLog {
            object.set(
                "transparencyLog",
                .object(
                    JSONObject([
                        ("origin", .string(transparencyLog.key.name)),
                        ("key", .string(transparencyLog.key.description)),
                        ("size", .integer(Int64(transparencyLog.size))),
                        ("root", .string(Base64.encode(transparencyLog.root.bytes))),
                    ])))
        }
        object.set(
            "sharedBindings",
            .array(
                sharedBindings.sorted { $0.key < $1.key }.map { binding, identities in
                    .object(
                        JSONObject([
                            ("binding", .string(binding.text)),
                            (
                                "identities",
                                .array(
                                    identities.map {
                                        .object(
                                            JSONObject([
                                                ("user", .string($0.user.text)),
                                                ("acceptedAt", .string($0.acceptedAt.rfc3339)),
                                            ]))
                                    })
                            ),
                        ]))
                }))
        return object
    }
}
