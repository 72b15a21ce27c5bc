import LedgerFormat
import LedgerStore

/// The outcome of `verify`: data, never an exception.
///
/// Findings come in two kinds (``PolicyFailure/Kind``): a ledger with integrity findings is not
/// authentic; an authentic ledger with conduct findings is verified *with findings* — its history is
/// what the vendor published, and it shows the vendor breaking the rules.
public struct VerificationReport {
    public let summary: VerificationSummary
    /// Every finding, integrity and conduct, in the order found.
    public let failures: [PolicyFailure]
    /// The authentic history (no integrity findings), for gate and reconcile.
    public let history: VerifiedHistory?
    /// Evidence files this run wrote (a rewritten history's signed commits and disowned history).
    public var evidence: [String] = []
    /// The auditor's state folder for this ledger, when state is kept.
    public var stateFolder: String?
    /// The root of trust the history was checked against, as key fingerprints.
    public var trust: [String] = []

    /// No integrity findings: the history is what the key holders published.
    public var isAuthentic: Bool { !failures.contains { $0.kind == .integrity } }
    /// No conduct findings: every write is one the rules authorize.
    public var isCompliant: Bool { !failures.contains { $0.kind == .conduct } }
    /// No witness findings: the witness quorum the auditor asked for (if any) cosigned the tip's checkpoint.
    public var isWitnessed: Bool { !failures.contains { $0.kind == .witness } }
    /// Authentic, compliant and witnessed as asked.
    public var isVerified: Bool { failures.isEmpty }
    public var conductFindings: [PolicyFailure] { failures.filter { $0.kind == .conduct } }
    public var witnessFindings: [PolicyFailure] { failures.filter { $0.kind == .witness } }

    init(summary: VerificationSummary, failures: [PolicyFailure], history: VerifiedHistory? = nil) {
        self.summary = summary
        self.failures = failures
        self.history = history
    }
}
