import LedgerFormat
import LedgerStore

/// One invariant of a ledger, judged commit by commit (<doc:OneRulebook>).
///
/// A policy reads the ``CommitStep`` and the ``ReplayState`` before it and returns findings; it never
/// throws for a rule violation and never changes state. ``StandardLedgerPolicy`` runs them in order.
public protocol LedgerPolicy: Sendable {
    static var name: String { get }
    /// What this policy's findings say about the ledger (docs/VERIFY.md): integrity unless the
    /// policy judges the vendor's conduct in an authentic history.
    static var findingKind: PolicyFailure.Kind { get }
    /// The declared signatures (`RecordDeclaration/signatures`) whose failure this policy reports.
    static var judgedSignatures: [JudgedSignature] { get }
    func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure]
}

extension LedgerPolicy {
    public var name: String { Self.name }
    public static var findingKind: PolicyFailure.Kind { .integrity }
    public static var judgedSignatures: [JudgedSignature] { [] }

    func failure(
        _ step: CommitStep, path: String? = nil, record: String? = nil, kind: PolicyFailure.Kind? = nil,
        _ reason: String, write: PolicyFailure.WriteDetail? = nil
    ) -> PolicyFailure {
        PolicyFailure(
            policy: Self.name, kind: kind ?? Self.findingKind, commit: step.id, path: path, record: record,
            reason: reason, write: write)
    }
}

/// The standard policies, in the order they run (docs/VERIFY.md lists what each checks).
public enum StandardLedgerPolicy {
    public static let policies: [any LedgerPolicy] = [
        HistoryPolicy(),
        TimeOrderPolicy(),
        CommitHeaderPolicy(),
        GitObjectPolicy(),
        CommitSignaturePolicy(),
        TreeWhitelistPolicy(),
        BatchFolderPolicy(),
        AppendOnlyPolicy(),
        DescriptorPolicy(),
        RecordLimitsPolicy(),
        CanonicalFormPolicy(),
        RecordSchemaPolicy(),
        ContentAddressPolicy(),
        ManifestSignaturePolicy(),
        AuthorityIdentityPolicy(),
        MandateSignaturePolicy(),
        VerdictAuthorityPolicy(),
        VerdictValidationPolicy(),
        ReceiptPolicy(),
        ChainLinkPolicy(),
        LogTrailerPolicy(),
        CheckpointPolicy(),
        CosignaturePolicy(),
        MandateScopePolicy(),
        AccountScopePolicy(),
        RevocationPolicy(),
        GrantPolicy(),
        WriteReplayPolicy(),
    ]
}
