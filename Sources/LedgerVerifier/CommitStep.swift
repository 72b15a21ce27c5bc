public import LedgerFormat
public import LedgerStore

/// Everything one commit brings, loaded and pre-checked, for the policies to judge.
///
/// Built by `CommitLoader`: git reads on the calling thread, then parsing, hashing and signature
/// verification for the commit's files on both cores. Policies only read it.
public struct CommitStep: Sendable {
    /// The commit's position in history (0 = root).
    public let index: Int
    public let commit: CommitInfo
    public let parentTree: ObjectID?
    public let signature: CommitSignature
    /// Every path that differs from the parent commit, files and anomalous folders alike.
    public let changes: [PathChange]
    /// Added files on the whitelist and within limits, loaded and decoded.
    public let files: [LoadedFile]
    /// The trailers the commit message states, if they parse.
    public let trailers: LedgerTrailers?
    /// The leaf hashes the commit adds to the ledger's transparency log, in log order (`LedgerLog`).
    public var leafHashes: [Merkle.Hash] = []
    /// Git objects refused before they were interpreted (non-canonical, too deep, too large).
    public var anomalies: [GitAnomaly] = []

    public var id: ObjectID { commit.id }
}
