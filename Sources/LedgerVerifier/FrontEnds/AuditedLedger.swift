public import LedgerFormat

/// "Verify, then evaluate" (docs/DECISIONS.md, "Verification"): gate and reconcile accept only authentic history.
/// They verify first — incrementally from the auditor's state — and refuse a ledger with integrity
/// findings; a ledger whose history is authentic but shows the vendor breaking the rules (conduct
/// findings) is evaluated, and the answer says so.
public struct AuditedLedger {
    public let history: VerifiedHistory
    public let conductFindings: [PolicyFailure]
    /// What the verification covered (commits, records, signatures, signers, the log).
    public let summary: VerificationSummary
    /// The root of trust it was checked against, as key fingerprints.
    public let trust: [String]
    /// The time the history was verified at.
    public let verifiedAt: Instant

    /// Why a ledger cannot be evaluated.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// Verification could not run (no trust, unreadable input…).
        case input(Verifier.InputError)
        /// The history is not authentic: its integrity findings.
        case notAuthentic([PolicyFailure])

        public var description: String {
            switch self {
            case .input(let error): error.description
            case .notAuthentic(let integrity):
                "the ledger is not authentic (\(integrity.count) integrity findings"
                    + (integrity.first.map { "; first: \($0)" } ?? "") + "); run 'onym-ledger verify'"
            }
        }
    }

    /// Verifies `path` at `now` (a dry run about the past must still accept commits made since, so callers
    /// pass the later of the wall clock and the evaluation time).
    public static func open(path: String, trust: TrustRoot?, stateRoot: String?, now: Instant) throws(Failure)
        -> AuditedLedger
    {
        var options = Verifier.Options(trustRoot: trust, now: now)
        options.stateRoot = stateRoot
        let report: VerificationReport
        do {
            report = try Verifier.verify(path: path, options: options)
        } catch {
            throw .input(error)
        }
        guard let history = report.history else {
            throw .notAuthentic(report.failures.filter { $0.kind == .integrity })
        }
        return AuditedLedger(
            history: history, conductFindings: report.conductFindings, summary: report.summary, trust: report.trust,
            verifiedAt: now)
    }

    /// One line for stderr when the history shows the vendor breaking the rules.
    public var conductNote: String? {
        guard !conductFindings.isEmpty else { return nil }
        return "note: the ledger is authentic but has \(conductFindings.count) conduct finding(s) "
            + "(writes the rules do not authorize, or rules otherwise broken); run 'onym-ledger verify' for each"
    }

    /// The write-log entries a conduct finding names, by device binding (their sequences, oldest first).
    public var unauthorizedWrites: [WireString: [Int64]] {
        var writes: [WireString: [Int64]] = [:]
        for finding in conductFindings {
            if let write = finding.write { writes[write.binding, default: []].append(write.sequence) }
        }
        return writes
    }

    /// The binding `binding` names, refused when nothing in the ledger names it (a typo must not get a
    /// plausible answer).
    public func knownBinding(_ binding: String) throws(UnknownBinding) -> WireString {
        guard history.knows(binding: WireString(binding)) else { throw UnknownBinding(binding: binding) }
        return WireString(binding)
    }

    public struct UnknownBinding: Error, Sendable, CustomStringConvertible {
        public let binding: String
        public var description: String {
            "--binding \(binding): no mandate, verdict or write in this ledger names this device binding"
        }
    }
}
