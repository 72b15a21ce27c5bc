public import LedgerFormat

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
