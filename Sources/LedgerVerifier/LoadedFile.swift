public import LedgerFormat
public import LedgerStore

/// One file a commit adds (or replaces, where the format allows it), loaded and decoded.
///
/// A class, not a struct: every policy walks every file of a commit, and copying a file's fields (path,
/// bytes, the decoded record, the checks) cost a fifth of a full verify in retains and releases. It is
/// filled in only by `CommitLoader` — decoding, then references and signatures — before the step reaches
/// any policy, which only reads it; hence `@unchecked Sendable`.
public final class LoadedFile: @unchecked Sendable {
    public let path: String
    public let meaning: LedgerLayout.PathMeaning
    /// The batch folder a record or manifest signature is stored in (nil for the root files and the log).
    public var batch: Int64? = nil
    /// The blob the commit's tree names for the file.
    public var blob: ObjectID? = nil
    public let bytes: [UInt8]
    public let isCanonical: Bool
    public let content: Result<FileContent, LedgerFormatError>
    /// The stored record `content` holds, taken out once (the policies ask each file for it many times).
    public let storedRecord: (any StoredRecord)?
    /// The kinds every commit holds many of, taken out of ``storedRecord`` once: the policies and the
    /// replay ask each file for them several times, and a cast out of `any StoredRecord` is the runtime's
    /// dynamic cast each time.
    public let mandate: Mandate?
    public let verdict: Verdict?
    public let receipt: VerdictReceipt?
    /// The write-log entry `content` holds, taken out once.
    public let entry: WriteLogEntry?
    /// The descriptor `content` holds, taken out once (the policies and the replay look for it in every commit).
    public let descriptor: LedgerDescriptor?
    /// What the file's kind declares about it (its references and signatures): its record, or — for a
    /// detached manifest signature — the signature with the manifest hash its path names. Taken out once:
    /// resolving references and checking signatures ask every file for it.
    public let declaration: (any RecordDeclaration)?
    /// SHA-256 of the file's bytes: its leaf in the ledger's transparency log (`LedgerLog`).
    public var sha256 = Merkle.emptyRoot
    /// Signature checks done on the worker threads (filled in by `CommitLoader`).
    public var checks = RecordChecks()
    /// The signature verifications the reading thread made ahead for the file (`SignatureForesight`).
    var verifications: Ed25519.Verifications? = nil
    /// For a cosignature the commit replaces (`cosignatures/<key ID>`): the bytes its parent stored there.
    public var replacedBytes: [UInt8]? = nil
    /// For a receipt: its verdict as the replay executes it (`ReplayState.executedFact`), worked out once by
    /// `CommitLoader` for every policy and the fold; nil when the verdict is not executed or does not resolve.
    public var executedFact: VerdictFact? = nil

    public init(
        path: String, meaning: LedgerLayout.PathMeaning, bytes: [UInt8], isCanonical: Bool,
        content: Result<FileContent, LedgerFormatError>
    ) {
        self.path = path
        self.meaning = meaning
        self.bytes = bytes
        self.isCanonical = isCanonical
        self.content = content
        var record: (any StoredRecord)?
        var entry: WriteLogEntry?
        var declaration: (any RecordDeclaration)?
        var descriptor: LedgerDescriptor?
        switch content {
        case .success(.record(let value)):
            record = value
            declaration = value
        case .success(.entry(let value)):
            entry = value
        case .success(.manifestSignature(let bytes)):
            if case .manifestSignature(let hash) = meaning {
                declaration = DetachedManifestSignature(manifestHash: hash, bytes: bytes)
            }
        case .success(.descriptor(let value)):
            descriptor = value
        default:
            break
        }
        (self.storedRecord, self.entry, self.declaration, self.descriptor) = (record, entry, declaration, descriptor)
        let code = record.map { type(of: $0).code }
        mandate = code == Mandate.code ? record as? Mandate : nil
        verdict = code == Verdict.code ? record as? Verdict : nil
        receipt = code == VerdictReceipt.code ? record as? VerdictReceipt : nil
    }
}

extension LoadedFile {
    /// The stored record this file holds, when it decoded as `T`.
    public func record<T: StoredRecord>(_ type: T.Type = T.self) -> T? {
        // The kind's code first: a cast that fails is the costly kind of `as?`.
        guard let storedRecord, Swift.type(of: storedRecord).code == T.code else { return nil }
        return storedRecord as? T
    }

    public var manifest: AuthorityManifest? { record() }
    public var statusAttempt: StatusAttempt? { record() }
}
