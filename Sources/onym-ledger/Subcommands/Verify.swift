import Foundation
import LedgerFormat
import LedgerStore
import LedgerVerifier
import LedgerWriter

extension OnymLedger {
    /// `verify`: the auditor's offline check of a whole ledger.
    struct Verify: Command {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract:
                "Verify a ledger offline: history, signatures, records, verdicts, the write-log chain, the replay.",
            usage:
                "verify LEDGER [--trust KEY_OR_FILE] [--state DIR] [--since COMMIT] [--at RFC3339] [--full] [--forget] [--json] [--explain]",
            discussion: """
                --trust pins the root of trust: the first commit must be signed by it, every later commit by a key
                its parent's keys/allowed_signers lists. The auditor's state folder (--state, default
                $XDG_STATE_HOME/onym-ledger or ~/.local/state/onym-ledger) remembers, per ledger, the root of trust,
                the verified tip and a journal of every tip verified; nothing inside a repository is ever read as
                trust. A later run without --trust uses the remembered root; a --trust that differs from it is
                refused unless --forget is given (recorded in the journal). A tip that does not descend from the
                remembered one is reported as a rewrite on every run, with evidence files (both signed commits and
                a git bundle of the disowned history), until 'verify --forget'. --since COMMIT starts after a commit
                the state holds or whose allowed signers include the --trust key; --full re-checks everything
                (keeping the remembered root of trust).
                Findings are integrity findings (the history is not what the key holders published: REJECTED) or
                conduct findings (the history is authentic and shows the vendor breaking the rules: VERIFIED WITH
                FINDINGS). At most 5 findings of one policy are printed; --json lists all.
                Exit codes: 0 verified, 2 verified with conduct findings, 1 rejected, 64 usage or a refused
                request, 65 unreadable input, 70 internal error.
                """,
            options: AuditOptions.help + [
                OptionHelp(
                    names: "--since COMMIT",
                    help: "Check only commits after this one (held by the state, or signed under --trust)."),
                OptionHelp(names: "--at RFC3339", help: "The verification time (default: now)."),
                OptionHelp(names: "--full", help: "Check every commit again (the remembered root of trust stays)."),
                OptionHelp(
                    names: "--forget",
                    help: "Acknowledge reported rewrites and accept a new --trust; recorded in the state's journal."),
                OptionHelp(names: "--json", help: "Print the summary and every finding as one JSON document."),
                OptionHelp(names: "--explain", help: "Print every policy decision as it is made (on stderr)."),
            ])

        /// Findings of one policy printed before the rest are counted.
        static let findingsPerPolicy = 5

        let ledger: String
        let audit: AuditOptions
        let since: String?
        let now: Instant
        let full: Bool
        let forget: Bool
        let json: Bool
        let explain: Bool

        init(parsing arguments: inout Arguments) throws(CLIError) {
            audit = try AuditOptions(parsing: &arguments)
            since = try arguments.option("--since")
            now = try CommonOptions.batchTime(&arguments)
            full = arguments.flag("--full")
            forget = arguments.flag("--forget")
            json = arguments.flag("--json")
            explain = arguments.flag("--explain")
            let rest = try arguments.positionals()
            guard rest.count == 1 else { throw .usage("verify takes one LEDGER") }
            ledger = rest[0]
        }

        func run() throws(CLIError) -> ExitCode {
            var options = Verifier.Options(trustRoot: audit.trust, now: now)
            options.stateRoot = audit.stateRoot
            options.resume = !full
            options.forget = forget
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
                throw AuditOptions.cliError(error)
            }
            if json {
                var object = JSONObject([
                    ("verified", .bool(report.isVerified)), ("authentic", .bool(report.isAuthentic)),
                    ("compliant", .bool(report.isCompliant)), ("summary", .object(report.summary.json)),
                    ("findings", .array(report.failures.map { .object($0.json) })),
                    ("evidence", .array(report.evidence.map { .string($0) })),
                ])
                object.set("stateFolder", report.stateFolder.map { .string($0) } ?? .null)
                Output.json(object)
            } else {
                Output.out(Self.human(report))
            }
            if !report.isAuthentic { return .rejected }
            return report.isCompliant ? .success : .findings
        }

        static func human(_ report: VerificationReport) -> String {
            let summary = report.summary
            let integrity = report.failures.filter { $0.kind == .integrity }
            let conduct = report.conductFindings
            var lines: [String] = []
            let id = summary.ledgerId ?? ""
            if !report.isAuthentic {
                let also = conduct.isEmpty ? "" : ", \(conduct.count) conduct finding(s)"
                lines.append("REJECTED \(id) — \(integrity.count) integrity finding(s)\(also)")
            } else if !report.isCompliant {
                lines.append(
                    "VERIFIED WITH FINDINGS \(id) — authentic, but \(conduct.count) conduct finding(s): the vendor broke the rules"
                )
            } else {
                lines.append("VERIFIED \(id)")
            }
            let incremental = summary.resumedFrom.map {
                " (\(summary.commitsChecked) checked in this run, after \($0.short))"
            }
            lines.append("  commits:      \(summary.commits)\(incremental ?? "")")
            let records = summary.recordsByKind.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(
                separator: ", ")
            lines.append("  records:      \(records.isEmpty ? "none" : records)")
            lines.append("  write log:    \(summary.writeEntries) entries, head \(summary.logHead)")
            let signaturesNow = summary.resumedFrom == nil ? "" : " (\(summary.signaturesCheckedThisRun) in this run)"
            lines.append("  signatures:   \(summary.signaturesChecked) checked\(signaturesNow)")
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
            if !summary.sharedBindings.isEmpty {
                lines.append(
                    "  shared:       \(summary.sharedBindings.count) device binding(s) named by mandates of several identities"
                )
                for (binding, identities) in summary.sharedBindings.sorted(by: { $0.key < $1.key }).prefix(
                    findingsPerPolicy)
                {
                    lines.append(
                        "                \(binding): "
                            + identities.map { "\($0.user) (accepted \($0.acceptedAt))" }.joined(separator: ", "))
                }
            }
            if let folder = report.stateFolder { lines.append("  state:        \(folder)") }
            if !integrity.isEmpty {
                lines.append("integrity findings (the history is not what the key holders published):")
                lines += capped(integrity)
            }
            if !conduct.isEmpty {
                lines.append("conduct findings (the history is authentic; the vendor broke the rules):")
                lines += capped(conduct)
            }
            if !report.evidence.isEmpty {
                lines.append("evidence (checkable with stock git and ssh-keygen):")
                lines += report.evidence.map { "  \($0)" }
            }
            return lines.joined(separator: "\n")
        }

        /// One line per finding, at most ``findingsPerPolicy`` per policy, then a count of the rest.
        static func capped(_ findings: [PolicyFailure]) -> [String] {
            var shown: [String: Int] = [:]
            var hidden: [(policy: String, count: Int)] = []
            var lines: [String] = []
            for finding in findings {
                let count = shown[finding.policy, default: 0]
                shown[finding.policy] = count + 1
                if count < findingsPerPolicy {
                    lines.append(finding.description)
                } else if let index = hidden.firstIndex(where: { $0.policy == finding.policy }) {
                    hidden[index].count += 1
                } else {
                    hidden.append((finding.policy, 1))
                }
            }
            for (policy, count) in hidden {
                lines.append("… and \(count) more \(policy) finding(s); --json lists all")
            }
            return lines
        }
    }
}
