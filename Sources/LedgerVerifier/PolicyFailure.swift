public import LedgerFormat
public import LedgerWriter

/// One rule a ledger breaks: which policy, where (commit, path, record) and why (STYLE.md guideline 8).
public struct PolicyFailure: Sendable, Equatable, CustomStringConvertible {
    public let policy: String
    public let commit: ObjectID?
    public let path: String?
    public let record: String?
    public let reason: String

    public init(policy: String, commit: ObjectID?, path: String? = nil, record: String? = nil, reason: String) {
        self.policy = policy
        self.commit = commit
        self.path = path
        self.record = record
        self.reason = reason
    }

    /// `Policy: commit path [record]: reason` — the policy name first.
    public var description: String {
        var location: [String] = []
        if let commit { location.append(commit.short) }
        if let path { location.append(path) }
        if let record { location.append("[\(record)]") }
        return "\(policy): \(location.joined(separator: " "))\(location.isEmpty ? "" : ": ")\(reason)"
    }

    public var json: JSONObject {
        var object = JSONObject([("policy", .string(policy)), ("reason", .string(reason))])
        if let commit { object.set("commit", .string(commit.hex)) }
        if let path { object.set("path", .string(path)) }
        if let record { object.set("record", .string(record)) }
        return object
    }
}

/// What a verification run saw, verified or not.
public struct VerificationSummary: Sendable {
    public var commits = 0
    /// Commits checked in this run (fewer than ``commits`` for an incremental run).
    public var commitsChecked = 0
    public var recordsByKind: [String: Int] = [:]
    public var writeEntries: Int64 = 0
    public var signaturesChecked = 0
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
    /// The commit an incremental run started after, if any.
    public var resumedFrom: ObjectID?

    public var json: JSONObject {
        var object = JSONObject([
            ("commits", .integer(Int64(commits))), ("commitsChecked", .integer(Int64(commitsChecked))),
            (
                "records",
                .object(
                    JSONObject(recordsByKind.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) }))
            ),
            ("writeEntries", .integer(writeEntries)), ("signaturesChecked", .integer(Int64(signaturesChecked))),
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
        return object
    }
}

/// The outcome of `verify`: data, never an exception (STYLE.md guideline 6).
public struct VerificationReport {
    public let summary: VerificationSummary
    public let failures: [PolicyFailure]
    /// The verified history, when there were no failures.
    public let history: VerifiedHistory?
    public var isVerified: Bool { failures.isEmpty }

    init(summary: VerificationSummary, failures: [PolicyFailure], history: VerifiedHistory? = nil) {
        self.summary = summary
        self.failures = failures
        self.history = history
    }
}
