public import LedgerFormat

/// What the loader found for one file through its kind's declaration (`RecordDeclaration`): the
/// records its references resolved to, and the status of each signature it carries.
public struct RecordChecks: Sendable {
    /// The records the file names, found in its commit or before it.
    public var references = ResolvedReferences()
    /// Each declared signature's status; a signature whose key is not known here is absent.
    public var signatures: [SignatureRole: SignatureStatus] = [:]
    /// How many signatures were checked (a missing one is not).
    public var signaturesChecked = 0

    public init() {}

    /// The first record of kind `T` the file's references resolved to.
    public func referenced<T: StoredRecord>(_ type: T.Type) -> T? { references.first(type) }
}
