public import LedgerFormat

/// A signature a kind declares (`SignatureRule`), as the policy that judges it names it: which policy
/// refuses a file whose signature of this role is not valid. `inspect` reports a signature under the
/// policy that judges it here, so `inspect`, `append` and `verify` name one rule alike.
public struct JudgedSignature: Sendable {
    /// The kind that declares the signature.
    public let kind: any RecordDeclaration.Type
    public let role: SignatureRole

    public init(_ kind: any RecordDeclaration.Type, _ role: SignatureRole) {
        self.kind = kind
        self.role = role
    }

    /// Every signature `kinds` declare.
    public static func declared(by kinds: [any RecordDeclaration.Type]) -> [JudgedSignature] {
        kinds.flatMap { kind in kind.signatures.map { JudgedSignature(kind, $0.role) } }
    }

    func isOf(_ kind: any RecordDeclaration.Type, _ role: SignatureRole) -> Bool {
        ObjectIdentifier(self.kind) == ObjectIdentifier(kind) && self.role == role
    }
}

extension StandardLedgerPolicy {
    /// The standard policy that judges the `role` signature `kind` declares (nil: none does).
    public static func judge(of kind: any RecordDeclaration.Type, _ role: SignatureRole) -> String? {
        policies.first { type(of: $0).judgedSignatures.contains { $0.isOf(kind, role) } }?.name
    }
}
