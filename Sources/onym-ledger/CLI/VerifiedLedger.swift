import Foundation
import LedgerFormat
import LedgerVerifier

extension AuditedLedger {
    /// The audited ledger for a verb: verified at the wall-clock time (or `evaluationTime` if later), its
    /// failures as the CLI's exit codes (not authentic: 1; refused or unreadable: 64/65).
    static func open(_ ledger: String, audit: AuditOptions, evaluationTime: Instant? = nil) throws(CLIError)
        -> AuditedLedger
    {
        let wallClock = Instant(seconds: Int64(Date().timeIntervalSince1970))
        do {
            return try AuditedLedger.open(
                path: ledger, trust: audit.trust, stateRoot: audit.stateRoot,
                now: max(wallClock, evaluationTime ?? wallClock))
        } catch {
            switch error {
            case .input(let input): throw AuditOptions.cliError(input)
            case .notAuthentic: throw CLIError(message: error.description, exitCode: .rejected)
            }
        }
    }
}
