public import LedgerFormat
public import LedgerStore

/// A commit that handed the ledger's transparency log to a new origin and key (docs/FORMAT.md, "Log
/// handover"): the descriptor's `log` changed from `from` to `to`, and the commit's checkpoint, the new log's
/// first, states the old log's last size and root.
public struct LogHandover: Sendable, Equatable {
    public let commit: ObjectID
    public let from: NoteKey
    public let to: NoteKey
    /// The log's size at the handover: the old log's last checkpoint and the new log's first both state it.
    public let size: Int

    public init(commit: ObjectID, from: NoteKey, to: NoteKey, size: Int) {
        self.commit = commit
        self.from = from
        self.to = to
        self.size = size
    }

    public var json: JSONObject {
        JSONObject([
            ("commit", .string(commit.hex)), ("from", .string(from.description)), ("to", .string(to.description)),
            ("size", .integer(Int64(size))),
        ])
    }

    public init(json: FieldReader) throws(LedgerFormatError) {
        guard let commit = ObjectID(hexString: try json.string("commit")), let from = NoteKey(try json.string("from")),
            let to = NoteKey(try json.string("to"))
        else { throw LedgerFormatError(.invalidValue, "not a log handover", path: "$.logHandovers") }
        self.init(commit: commit, from: from, to: to, size: Int(try json.integer("size")))
    }

    /// The handover `step` makes, if it replaces the descriptor with one whose `log` differs.
    static func made(by step: CommitStep, previous: LedgerDescriptor?, size: Int) -> LogHandover? {
        guard let previous, let from = previous.log,
            let to = step.files.lazy.compactMap({ $0.descriptor?.log }).first(where: { $0 != from }),
            step.changes.contains(where: { $0.path == LedgerLayout.descriptorPath && $0.kind == .modified })
        else { return nil }
        return LogHandover(commit: step.id, from: from, to: to, size: size)
    }
}
