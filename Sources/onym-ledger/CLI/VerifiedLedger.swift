import Foundation
import LedgerFormat
import LedgerStore
import LedgerVerifier
import LedgerWriter

/// Gate and reconcile accept only authentic history (STYLE.md guideline 6): they verify first —
/// incrementally from the auditor's state — and refuse a ledger with integrity findings. A ledger
/// whose history is authentic but shows the vendor breaking the rules (conduct findings) is evaluated,
/// and the answer says so.
struct VerifiedLedger {
    let history: VerifiedHistory
    let conductFindings: [PolicyFailure]

    /// Verifies at the wall-clock time (or `evaluationTime` if later): a dry run about the past must
    /// still accept commits made since then.
    init(_ ledger: String, audit: AuditOptions, evaluationTime: Instant) throws(CLIError) {
        let wallClock = Instant(seconds: Int64(Date().timeIntervalSince1970))
        var options = Verifier.Options(trustRoot: audit.trust, now: max(wallClock, evaluationTime))
        options.stateRoot = audit.stateRoot
        let report: VerificationReport
        do {
            report = try Verifier.verify(path: ledger, options: options)
        } catch {
            throw AuditOptions.cliError(error)
        }
        guard let history = report.history else {
            let integrity = report.failures.filter { $0.kind == .integrity }
            let first = integrity.first.map { "; first: \($0)" } ?? ""
            throw CLIError(
                message:
                    "the ledger is not authentic (\(integrity.count) integrity findings\(first)); run 'onym-ledger verify'",
                exitCode: .rejected)
        }
        self.history = history
        conductFindings = report.conductFindings
    }

    /// One line for stderr when the history shows the vendor breaking the rules.
    var conductNote: String? {
        guard !conductFindings.isEmpty else { return nil }
        return "note: the ledger is authentic but has \(conductFindings.count) conduct finding(s) "
            + "(writes the rules do not authorize, or rules otherwise broken); run 'onym-ledger verify' for each"
    }

    /// The write-log entries a conduct finding names, by device binding (their sequences, oldest first).
    var unauthorizedWrites: [String: [Int64]] {
        var writes: [String: [Int64]] = [:]
        for finding in conductFindings {
            if let write = finding.write { writes[write.binding, default: []].append(write.sequence) }
        }
        return writes
    }
}
