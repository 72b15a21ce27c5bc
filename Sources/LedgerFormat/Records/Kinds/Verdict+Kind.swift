/// A verdict as a stored kind. docs/DECISIONS.md, "Keys and signatures": it names a mandate, the mandate
/// pins a manifest by the hash of its exact bytes, and the verdict's signature verifies under that
/// manifest's operator key; its receipt arrives in the same commit (reference §3.6).
extension Verdict: CanonicalStoredRecord {
    public static let kindName = "verdict"
    public static let code: UInt8 = 3
    public static let folder = "verdicts"
    public static let tellingFields = ["verdictVersion"]
    public var address: ContentAddress { ref }

    public static let references: [RecordReference] = [
        .field(of: Verdict.self, to: Mandate.self) { [$0.mandateRef] },
        .through(Mandate.self, to: AuthorityManifest.self) { $0.manifestHash },
        .field(of: Verdict.self, to: VerdictReceipt.self, scope: .sameCommit) { [$0.ref] },
    ]

    public static let signatures: [SignatureRule] = [
        .init(of: Verdict.self, .operator, key: .referencedManifestOperator) { verdict, keys, _ in
            SignatureRule.any(of: keys, verdict.signature, over: verdict.signingBytes)
        }
    ]
}
