import LedgerFormat
import LedgerWriter

/// One invariant of a ledger, judged commit by commit (STYLE.md guideline 7).
///
/// A policy reads the ``CommitStep`` and the ``ReplayState`` before it and returns findings; it never
/// throws for a rule violation and never changes state. ``StandardLedgerPolicy`` runs them in order.
public protocol LedgerPolicy: Sendable {
    static var name: String { get }
    func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure]
}

extension LedgerPolicy {
    public var name: String { Self.name }

    func failure(_ step: CommitStep, path: String? = nil, record: String? = nil, _ reason: String) -> PolicyFailure {
        PolicyFailure(policy: Self.name, commit: step.id, path: path, record: record, reason: reason)
    }
}

/// The standard policies, in the order they run (docs/VERIFY.md lists what each checks).
public enum StandardLedgerPolicy {
    public static let policies: [any LedgerPolicy] = [
        HistoryPolicy(),
        CommitHeaderPolicy(),
        CommitSignaturePolicy(),
        TreeWhitelistPolicy(),
        AppendOnlyPolicy(),
        DescriptorPolicy(),
        RecordLimitsPolicy(),
        CanonicalFormPolicy(),
        RecordSchemaPolicy(),
        ContentAddressPolicy(),
        ManifestSignaturePolicy(),
        MandateSignaturePolicy(),
        VerdictAuthorityPolicy(),
        VerdictValidationPolicy(),
        ReceiptPolicy(),
        ChainLinkPolicy(),
        LogTrailerPolicy(),
        MandateScopePolicy(),
        AccountScopePolicy(),
        RevocationPolicy(),
        WriteReplayPolicy(),
    ]
}
