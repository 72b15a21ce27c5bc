/// Where the write log stands: how many entries it holds and the hash of the last (docs/FORMAT.md,
/// "Commits": each commit's `Onym-Ledger-Log-Size`/`-Head` trailers state it).
public struct LogPosition: Sendable, Equatable {
    public var size: Int64
    public var head: String

    public static let empty = LogPosition(size: 0, head: WriteLogEntry.genesis)

    public init(size: Int64, head: String) {
        self.size = size
        self.head = head
    }

    /// The position after `entries`: advanced, in sequence order, by each entry that continues the log
    /// (the next sequence, linked to the current head). Entries that do not continue it leave it where it
    /// is; the chain policy reports them. The writer and the verifier both move the log by this rule.
    public func advanced(by entries: some Sequence<WriteLogEntry>) -> LogPosition {
        var position = self
        for entry in entries.sorted(by: { $0.sequence < $1.sequence })
        where entry.sequence == position.size + 1 && entry.previousHash == position.head {
            position = LogPosition(size: entry.sequence, head: entry.entryHash)
        }
        return position
    }
}
