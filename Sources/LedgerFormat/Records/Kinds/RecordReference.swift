/// A reference one record makes to another by content address, declared by the referring kind
/// (``RecordDeclaration/references``).
public struct RecordReference: Sendable {
    /// Where the referenced record may be.
    public enum Scope: Sendable {
        /// In the same commit or any commit before it.
        case ledger
        /// In the same commit only (a verdict's receipt arrives with it: reference §3.6).
        case sameCommit
    }

    /// The kind the reference names.
    public let target: any StoredRecord.Type
    public let scope: Scope
    /// The addresses it names, from the referring record and what earlier references resolved to.
    public let addresses: @Sendable (any RecordDeclaration, ResolvedReferences) -> [ContentAddress]

    /// A field of the referring record names the target (a verdict's `mandateRef`).
    public static func field<Source: RecordDeclaration, Target: StoredRecord>(
        of source: Source.Type, to target: Target.Type, scope: Scope = .ledger,
        _ addresses: @escaping @Sendable (Source) -> [ContentAddress]
    ) -> RecordReference {
        RecordReference(target: target, scope: scope) { record, _ in (record as? Source).map(addresses) ?? [] }
    }

    /// A field of the record an earlier reference resolved to names the target (a verdict's mandate's
    /// `manifestHash`); nothing when that record is not found.
    public static func through<Via: StoredRecord, Target: StoredRecord>(
        _ via: Via.Type, to target: Target.Type, _ address: @escaping @Sendable (Via) -> ContentAddress
    ) -> RecordReference {
        RecordReference(target: target, scope: .ledger) { _, found in found.first(via).map { [address($0)] } ?? [] }
    }
}

/// The records a file's references resolved to, by kind and address.
public struct ResolvedReferences: Sendable {
    private var records: [(code: UInt8, address: ContentAddress, record: any StoredRecord)] = []

    public init() {}

    /// Records `record`, found under `address`.
    public mutating func add(_ record: any StoredRecord, at address: ContentAddress) {
        records.append((type(of: record).code, address, record))
    }

    /// Every record found: its kind's code, the address it was named by, and its stored bytes.
    var storedForms: [(code: UInt8, address: ContentAddress, bytes: [UInt8])] {
        records.map { ($0.code, $0.address, $0.record.storedBytes) }
    }

    /// The first record of kind `T` found.
    public func first<T: StoredRecord>(_ type: T.Type) -> T? {
        for entry in records where entry.code == T.code { return entry.record as? T }
        return nil
    }

    /// Every record of kind `T` found, by the address it was named by.
    public func all<T: StoredRecord>(_ type: T.Type) -> [ContentAddress: T] {
        var found: [ContentAddress: T] = [:]
        for entry in records where entry.code == T.code {
            if let record = entry.record as? T { found[entry.address] = record }
        }
        return found
    }
}
