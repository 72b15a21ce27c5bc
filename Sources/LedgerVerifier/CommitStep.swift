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
    /// Git objects refused before they were interpreted (non-canonical, too deep, too large).
    public var anomalies: [GitAnomaly] = []

    public var id: ObjectID { commit.id }
}

/// The commit's SSH signature as found in its `gpgsig` header.
public enum CommitSignature: Sendable {
    case missing
    /// Present but not exactly one well-formed SSHSIG armor.
    case malformed(String)
    case parsed(SSHSignature, signedData: [UInt8], isValid: Bool)
}

/// One path that differs between a commit and its parent.
public struct PathChange: Sendable {
    public enum Kind: Sendable { case added, modified, deleted }
    public let kind: Kind
    public let path: String
    /// The git mode of the new entry (or of the old one for a deletion).
    public let mode: UInt32
    public let objectKind: TreeEntry.Kind
    /// For a tree: whether it is empty (an empty folder is never on the whitelist).
    public let isEmptyTree: Bool
    /// For an added blob: its size from the object header (read before the content).
    public let size: Int?
    /// The object the path names in the new tree (nil for a deletion).
    public var id: ObjectID? = nil
}

/// A git object the verifier refused to interpret: where, and why.
public struct GitAnomaly: Sendable, Equatable {
    public let path: String
    public let reason: String
}

/// One added file, loaded and decoded.
public struct LoadedFile: Sendable {
    public let path: String
    public let meaning: LedgerLayout.PathMeaning
    public let bytes: [UInt8]
    public let isCanonical: Bool
    public var content: Result<FileContent, LedgerFormatError>
    /// Signature checks done on the worker threads (filled in by `CommitLoader`).
    public var checks = RecordChecks()
}

/// The decoded content of a ledger file.
public enum FileContent: Sendable {
    case descriptor(LedgerDescriptor)
    case allowedSigners(AllowedSigners)
    case manifestSignature([UInt8])
    /// A record stored by content address (`StoredRecord`).
    case record(any StoredRecord)
    case entry(WriteLogEntry)

    /// The content address this content has, to compare with the file's name (nil: not addressed).
    public var address: ContentAddress? {
        if case .record(let record) = self { return record.address }
        return nil
    }
}

/// Results of the expensive checks on one record, and the records it refers to.
public struct RecordChecks: Sendable {
    public var userSignature: SignatureStatus?
    public var interfaceSignature: SignatureStatus?
    public var operatorSignature: SignatureStatus?
    public var manifestSignature: SignatureStatus?
    /// For a verdict or receipt: the mandate and consented manifest it resolves to.
    public var mandate: Mandate?
    public var manifest: AuthorityManifest?
    /// For a receipt: its verdict; for a verdict: its receipt.
    public var verdict: Verdict?
    public var receipt: VerdictReceipt?
    public var signaturesChecked = 0
    /// For a revocation: the cited trigger records that resolve (this commit or earlier).
    public var citedReports: [ContentAddress: CompromiseReport] = [:]
    public var citedAttempts: [ContentAddress: StatusAttempt] = [:]
    /// For a status attempt, compromise report or revocation: its signature's status.
    public var recordSignature: SignatureStatus?
}

extension LoadedFile {
    /// The stored record this file holds, when it decoded as `T`.
    public func record<T: StoredRecord>(_ type: T.Type = T.self) -> T? {
        if case .success(.record(let record)) = content { return record as? T }
        return nil
    }

    public var mandate: Mandate? { record() }
    public var verdict: Verdict? { record() }
    public var receipt: VerdictReceipt? { record() }
    public var manifest: AuthorityManifest? { record() }
    public var statusAttempt: StatusAttempt? { record() }
    public var compromiseReport: CompromiseReport? { record() }
    public var revocation: RevocationDetermination? { record() }
    public var entry: WriteLogEntry? { if case .success(.entry(let value)) = content { value } else { nil } }
}
