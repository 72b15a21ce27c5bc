/// What a file of the ledger refers to and which signatures it carries, declared by its kind as data
/// (docs/FORMAT.md "Records"): the verifier's loader resolves the references through one lookup and
/// checks the signatures with the keys they name, for every kind alike, and `inspect` checks a one-file
/// candidate with the same declarations.
public protocol RecordDeclaration: Sendable {
    /// The records it names by content address, in the order they are resolved: a reference may go
    /// through one declared before it (a verdict's manifest through its mandate).
    static var references: [RecordReference] { get }
    /// The signatures it carries, and the key each is checked against.
    static var signatures: [SignatureRule] { get }
}

extension RecordDeclaration {
    public static var references: [RecordReference] { [] }
    public static var signatures: [SignatureRule] { [] }
}

/// A detached manifest signature (`MANIFEST.sig`, docs/FORMAT.md "Paths"): not a record, but a file that
/// names a manifest (by the hash its path carries) and is checked under that manifest's operator key.
public struct DetachedManifestSignature: RecordDeclaration {
    public let manifestHash: ContentAddress
    public let bytes: [UInt8]

    public init(manifestHash: ContentAddress, bytes: [UInt8]) {
        self.manifestHash = manifestHash
        self.bytes = bytes
    }

    public static let references: [RecordReference] = [
        .field(of: DetachedManifestSignature.self, to: AuthorityManifest.self) { [$0.manifestHash] }
    ]
    /// Reference §2 table: 64 bytes of Ed25519 by the manifest's own operator over its exact bytes.
    public static let signatures: [SignatureRule] = [
        .init(of: DetachedManifestSignature.self, .manifest, key: .referencedManifestOperator) { signature, _, found in
            guard let manifest = found.first(AuthorityManifest.self) else { return nil }
            return signature.bytes.count == 64 ? manifest.detachedSignatureStatus(signature.bytes) : .invalid
        }
    ]
}
