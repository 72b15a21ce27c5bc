/// Who and when a commit is attributed to; `time` comes from the batch, never a hidden clock.
public struct CommitIdentity: Sendable {
    public let name: String
    public let email: String
    /// Seconds since the epoch (UTC; the offset is always +0000).
    public let time: Int64

    public init(name: String = "onym-ledger", email: String = "ledger@onym.invalid", time: Int64) {
        self.name = name
        self.email = email
        self.time = time
    }
}
