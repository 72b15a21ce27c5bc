/// Which signature of a record a check is about: the names `inspect` shows and the policies report.
public enum SignatureRole: String, Sendable {
    /// A mandate's user (reference §2).
    case user
    /// The interface's countersigning key for the record's authority.
    case interface
    /// An authority's operator key, from the manifest the record names.
    case `operator`
    /// A manifest's detached signature, by its own operator.
    case manifest = "manifest (detached)"
    /// The grant a redemption redeems, by the operator key of the grantee's consented manifest.
    case grant = "grant (operator)"
}

/// Where the keys a signature is checked against come from.
public protocol SignatureKeys {
    /// The interface's countersigning keys for `authority` (the descriptor's, for `verify` and `append`).
    func countersigningKeys(for authority: WireString) -> [Ed25519.PublicKey]
    /// The operator keys of the manifest a record names (nil: not known, so not checked).
    func operatorKeys(of manifest: AuthorityManifest?) -> [Ed25519.PublicKey]?
}

/// One signature a kind carries (``RecordDeclaration/signatures``): its role, the key it is checked
/// against (found through the record's references where it is not the record's own), and the check.
public struct SignatureRule: Sendable {
    /// The key a signature is checked against.
    public enum Key: Sendable {
        /// A key the record carries itself (a mandate's user key).
        case carried
        /// The interface's countersigning key for the authority the record names.
        case countersigning(authority: @Sendable (any RecordDeclaration) -> WireString)
        /// The operator key of the manifest the record's references resolved to.
        case referencedManifestOperator
    }

    public let role: SignatureRole
    public let key: Key
    let status: @Sendable (any RecordDeclaration, [Ed25519.PublicKey], ResolvedReferences) -> SignatureStatus?
    /// For a key from a referenced manifest reached through other records (a verdict's, through its
    /// mandate): the authority the record names, whose manifest it must be — and in one ledger an authority's
    /// component id stands for one operator key (docs/DECISIONS.md, "An authority's id stands for one key").
    /// Not a rule: a hint for a reader that has not resolved the references, to guess the manifest with (the
    /// verifier's reading thread, which checks signatures ahead); nil when the record names none.
    public let manifestAuthority: (@Sendable (any RecordDeclaration) -> WireString?)?

    /// - Parameter status: the signature's status under the candidate keys, or nil when what it is checked
    ///   against is not among the resolved references (a redemption's grant, not given to `inspect`).
    /// - Parameter manifestAuthority: the authority whose manifest holds the key, as the record names it
    ///   (``manifestAuthority``).
    public init<Record: RecordDeclaration>(
        of record: Record.Type, _ role: SignatureRole, key: Key,
        manifestAuthority: (@Sendable (Record) -> WireString)? = nil,
        status: @escaping @Sendable (Record, [Ed25519.PublicKey], ResolvedReferences) -> SignatureStatus?
    ) {
        self.role = role
        self.key = key
        self.status = { record, keys, found in
            guard let record = record as? Record else { return .missing }
            return status(record, keys, found)
        }
        if let manifestAuthority {
            self.manifestAuthority = { record in (record as? Record).map(manifestAuthority) }
        } else {
            self.manifestAuthority = nil
        }
    }

    /// The signature's status on `record`, or nil when its key or what it signs is not known here (a
    /// referenced manifest or grant not found): then it is not checked at all. The one check `verify`,
    /// `append` and `inspect` run for the rule.
    public func check(_ record: any RecordDeclaration, references: ResolvedReferences, keys: any SignatureKeys)
        -> SignatureStatus?
    {
        guard let candidates = candidates(record, references: references, keys: keys) else { return nil }
        return status(record, candidates, references)
    }

    /// The key among `keys`' candidates the signature verifies under, when it is one of them (not for a
    /// key the record carries): what `inspect` shows beside a valid signature.
    public func verifyingKey(_ record: any RecordDeclaration, references: ResolvedReferences, keys: any SignatureKeys)
        -> Ed25519.PublicKey?
    {
        let candidates = candidates(record, references: references, keys: keys) ?? []
        return candidates.first { status(record, [$0], references) == .valid }
    }

    /// The keys the signature may verify under (none for a key the record carries), or nil when they are
    /// not known here.
    private func candidates(_ record: any RecordDeclaration, references: ResolvedReferences, keys: any SignatureKeys)
        -> [Ed25519.PublicKey]?
    {
        switch key {
        case .carried: []
        case .countersigning(let authority): keys.countersigningKeys(for: authority(record))
        case .referencedManifestOperator: keys.operatorKeys(of: references.first(AuthorityManifest.self))
        }
    }

    /// Checked under any one of `keys` (none: the key is unknown).
    public static func any(of keys: [Ed25519.PublicKey], _ signature: [UInt8], over bytes: [UInt8])
        -> SignatureStatus
    {
        guard !keys.isEmpty else { return .keyUnknown }
        return keys.contains { $0.isValidSignature(signature, for: bytes) } ? .valid : .invalid
    }
}
