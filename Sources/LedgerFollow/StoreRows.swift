/// The rows of a reference backend's store that the ledger mirrors (onym-wire §5, `apple/src/store.rs`), as
/// read: nothing here is trusted before ``BackendStore`` and ``Follower`` check it.
public struct StoreMandate: Sendable {
    /// `mandates.mandate_ref`.
    public let ref: String
    /// `mandates.raw`: the countersign request body, carrying the user's signature only.
    public let raw: [UInt8]
    /// `mandates.created_at`: when the backend countersigned (the event time of the mandate).
    public let createdAt: String
    /// `mandates.manifest_raw`: the exact manifest bytes the user consented to, attached write-once when the
    /// first verdict under the mandate arrived (nil before).
    public let manifestRaw: [UInt8]?
}

/// A row of `verdicts`.
public struct StoreVerdict: Sendable {
    /// `verdicts.verdict_ref`.
    public let ref: String
    /// `verdicts.mandate_ref`.
    public let mandateRef: String
    /// `verdicts.raw`: the signed verdict, re-encoded with sorted keys, `signature` included.
    public let raw: [UInt8]
    /// `verdicts.received_at`: the receipt time.
    public let receivedAt: String
}

/// A row of `write_log` (onym-wire §3.13), with its own chain hashes.
public struct StoreWriteRow: Sendable, Equatable {
    public let sequence: Int64
    public let recordedAt: String
    public let deviceBinding: String
    public let authorizedBy: String
    public let caseOpen: Bool
    public let banned: Bool
    public let outcome: String
    /// Android's extra chain field (`fields_written`), when the table has it.
    public let fieldsWritten: String?
    public let previousHash: String
    public let entryHash: String
}

/// One consistent read of the store (one read transaction): what the ledger may not hold yet.
public struct StoreSnapshot: Sendable {
    public var mandates: [StoreMandate] = []
    public var verdicts: [StoreVerdict] = []
    /// Write-log rows after the ledger's log size, in sequence order (the chain before them was checked
    /// while reading).
    public var newWriteRows: [StoreWriteRow] = []
    /// Rows in `write_log` altogether, and the last one's `entry_hash` (`genesis` when empty).
    public var writeLogSize: Int64 = 0
    public var writeLogHead = "genesis"
    /// Rows of `recoveries`: not imported (the store keeps no grant bytes for them; docs/DECISIONS.md).
    public var recoveries = 0
}
