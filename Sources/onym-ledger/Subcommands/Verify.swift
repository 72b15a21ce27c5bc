import Foundation
import LedgerFormat
import LedgerVerifier
import LedgerWriter

extension OnymLedger {
    /// `verify`: the auditor's offline check of a whole ledger.
    struct Verify: Command {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Verify a ledger offline: history, signatures, records, verdicts, the write-log chain.",
            usage: "verify LEDGER [--trust KEY_OR_FILE] [--since COMMIT] [--at RFC3339] [--full] [--json] [--explain]",
            discussion: """
                --trust pins the root of trust: an ssh-ed25519 public key (or .pub file), an allowed-signers file,
                or a key fingerprint (SHA256:…). The first commit must be signed by it; every later commit by a key
                its parent's keys/allowed_signers lists. Without --trust, the trust remembered by an earlier
                successful run is used; with neither, verify refuses (exit 64).
                After a successful run the verified tip is remembered in the repository's git directory (never in
                a ref); the next run checks that the tip descends from it and re-checks only what is new. --since
                does the same from a commit you name; --full re-checks everything.
                Exit codes: 0 verified, 1 rejected (each failure printed on one line: policy, commit, path,
                record, reason), 64 usage, 65 unreadable input, 70 internal error.
                """,
            options: [
                OptionHelp(
                    names: "--trust KEY_OR_FILE",
                    help: "The root of trust (public key, allowed-signers file, SHA256: fingerprint)."),
                OptionHelp(
                    names: "--since COMMIT",
                    help: "Check only commits after this one (it must be an ancestor of the tip)."),
                OptionHelp(names: "--at RFC3339", help: "The verification time (default: now)."),
                OptionHelp(names: "--full", help: "Ignore the remembered checkpoint and check every commit."),
                OptionHelp(names: "--json", help: "Print the summary and failures as one JSON document."),
                OptionHelp(names: "--explain", help: "Print every policy decision as it is made (on stderr)."),
            ])

        let ledger: String
        let trust: TrustRoot?
        let since: String?
        let now: Instant
        let full: Bool
        let json: Bool
        let explain: Bool

        init(parsing arguments: inout Arguments) throws(CLIError) {
            if let text = try arguments.option("--trust") {
                var source = text
                if !text.hasPrefix("SHA256:"), !text.hasPrefix("ssh-ed25519 "),
                    let data = FileManager.default.contents(atPath: text)
                {
                    source = String(decoding: data, as: UTF8.self)
                } else if !text.hasPrefix("SHA256:"), !text.hasPrefix("ssh-ed25519 ") {
                    throw .usage("--trust \(text): not a key, a fingerprint, or a readable file")
                }
                do {
                    trust = try TrustRoot.parse(source)
                } catch {
                    throw .usage("--trust \(text): \(error.reason)")
                }
            } else {
                trust = nil
            }
            since = try arguments.option("--since")
            now = try CommonOptions.batchTime(&arguments)
            full = arguments.flag("--full")
            json = arguments.flag("--json")
            explain = arguments.flag("--explain")
            let rest = try arguments.positionals()
            guard rest.count == 1 else { throw .usage("verify takes one LEDGER") }
            ledger = rest[0]
        }

        func run() throws(CLIError) -> ExitCode {
            var options = Verifier.Options(trustRoot: trust, now: now)
            options.useCheckpoint = !full
            if let since {
                do {
                    options.since = try Repository.open(ledger).resolveCommit(since)
                } catch {
                    throw .usage("--since \(since): \(error.message)")
                }
            }
            if explain {
                options.diagnostic = { event in Output.err(event.description) }
            }
            if Output.stderrIsTerminal && !explain {
                options.progress = { done, total in
                    if done == total || done % 50 == 0 {
                        FileHandle.standardError.write(Data("\r\u{1B}[Kverifying commit \(done)/\(total)".utf8))
                        if done == total { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
                    }
                }
            }
            let report: VerificationReport
            do {
                report = try Verifier.verify(path: ledger, options: options)
            } catch {
                switch error.kind {
                case .noTrustRoot: throw .usage(error.description)
                case .unreadable: throw .data(error.description)
                case .internalError: throw CLIError(message: error.description, exitCode: .internalError)
                }
            }
            if json {
                Output.json(
                    JSONObject([
                        ("verified", .bool(report.isVerified)), ("summary", .object(report.summary.json)),
                        ("failures", .array(report.failures.map { .object($0.json) })),
                    ]))
            } else {
                Output.out(Self.human(report))
            }
            return report.isVerified ? .success : .rejected
        }

        static func human(_ report: VerificationReport) -> String {
            let summary = report.summary
            var lines: [String] = []
            lines.append(
                report.isVerified
                    ? "VERIFIED \(summary.ledgerId ?? "")"
                    : "REJECTED \(summary.ledgerId ?? "") — \(report.failures.count) failure(s)")
            let checked = summary.resumedFrom.map { "; \(summary.commitsChecked) new since \($0.short)" } ?? ""
            lines.append("  commits:      \(summary.commits)\(checked)")
            let records = summary.recordsByKind.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(
                separator: ", ")
            lines.append("  records:      \(records.isEmpty ? "none" : records)")
            lines.append("  write log:    \(summary.writeEntries) entries, head \(summary.logHead.prefix(16))")
            lines.append("  signatures:   \(summary.signaturesChecked) checked")
            if let first = summary.firstCommitTime, let last = summary.lastCommitTime {
                lines.append("  time span:    \(Instant(seconds: first).rfc3339) … \(Instant(seconds: last).rfc3339)")
            }
            if let tip = summary.tip { lines.append("  tip:          \(tip.hex)") }
            if let interface = summary.interface { lines.append("  interface:    \(interface)") }
            if let account = summary.appleAccount {
                lines.append("  Apple scope:  team \(account.teamId), apps \(account.apps.joined(separator: ", "))")
            } else {
                lines.append("  Apple scope:  undeclared")
            }
            if !summary.signers.isEmpty { lines.append("  signers:      \(summary.signers.joined(separator: ", "))") }
            for failure in report.failures { lines.append(failure.description) }
            return lines.joined(separator: "\n")
        }
    }
}
