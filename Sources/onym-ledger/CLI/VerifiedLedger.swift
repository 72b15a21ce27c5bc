import Foundation
import LedgerFormat
import LedgerVerifier
import LedgerWriter

/// Gate and reconcile accept only verified history (STYLE.md guideline 6): they verify first —
/// incrementally when a checkpoint exists — and refuse a ledger that does not verify.
enum VerifiedLedger {
    static func trustRoot(_ arguments: inout Arguments) throws(CLIError) -> TrustRoot? {
        guard let text = try arguments.option("--trust") else { return nil }
        var source = text
        if !text.hasPrefix("SHA256:"), !text.hasPrefix("ssh-ed25519 ") {
            guard let data = FileManager.default.contents(atPath: text) else {
                throw .usage("--trust \(text): not a key, a fingerprint, or a readable file")
            }
            source = String(decoding: data, as: UTF8.self)
        }
        do {
            return try TrustRoot.parse(source)
        } catch {
            throw .usage("--trust \(text): \(error.reason)")
        }
    }

    /// Verifies at the wall-clock time (or `evaluationTime` if later): a dry run about the past must
    /// still accept commits made since then.
    static func load(_ ledger: String, trust: TrustRoot?, evaluationTime: Instant) throws(CLIError) -> VerifiedHistory {
        let wallClock = Instant(seconds: Int64(Date().timeIntervalSince1970))
        let report: VerificationReport
        do {
            report = try Verifier.verify(
                path: ledger, options: Verifier.Options(trustRoot: trust, now: max(wallClock, evaluationTime)))
        } catch {
            switch error.kind {
            case .noTrustRoot: throw .usage(error.description)
            case .unreadable: throw .data(error.description)
            case .internalError: throw CLIError(message: error.description, exitCode: .internalError)
            }
        }
        guard let history = report.history else {
            let first = report.failures.first.map { "; first: \($0)" } ?? ""
            throw CLIError(
                message:
                    "the ledger does not verify (\(report.failures.count) failures\(first)); run 'onym-ledger verify'",
                exitCode: .rejected)
        }
        return history
    }
}
