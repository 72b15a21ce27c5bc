import Foundation
import LedgerFormat
import LedgerStore
import LedgerVerifier

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
                Witness findings (--witness, --quorum) say the history is authentic but not (yet) cosigned by the
                witnesses required: VERIFIED, NOT WITNESSED, "witnessed": false.
                A run over more than about a million write entries keeps part of what it remembers in tables in
                $TMPDIR (else /tmp), removed as they are opened: at ten million, up to ~2 GB of disk (of memory
                when that folder is a tmpfs).
                Exit codes: 0 verified, 1 rejected, 2 verified with conduct findings, 3 authentic but not witnessed
                as required (before 2: witnessing is asked for), 64 usage or a refused request, 65 unreadable
                input, 70 internal error.
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
                OptionHelp(
                    names: "--witness VKEY",
                    help: "Require this witness's cosignature/v1 of the tip's checkpoint (repeatable; key or file)."),
                OptionHelp(
                    names: "--quorum K", help: "How many of the --witness keys must have cosigned (default: all)."),
                OptionHelp(names: "--max-age DURATION", help: "The oldest cosignature that counts (P1D, PT6H…)."),
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
        let witnesses: WitnessOptions

        init(parsing arguments: inout Arguments) throws(CLIError) {
            audit = try AuditOptions(parsing: &arguments)
            witnesses = try WitnessOptions(parsing: &arguments)
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
            options.witnesses = witnesses.keys
            options.quorum = witnesses.quorum
            options.witnessMaxAge = witnesses.maxAge
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
                Output.json(report.json)
            } else {
                Output.out(report.lines(findingsPerPolicy: Self.findingsPerPolicy).joined(separator: "\n"))
            }
            if !report.isAuthentic { return .rejected }
            if !report.isWitnessed { return .notWitnessed }
            return report.isCompliant ? .success : .findings
        }
    }
}
