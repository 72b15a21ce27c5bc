import LedgerFormat
import LedgerStore
import LedgerVerifier
import LedgerWriter

extension OnymLedger {
    /// `append`: one batch of records and writes as one signed commit.
    struct Append: Command {
        static let configuration = CommandConfiguration(
            commandName: "append",
            abstract: "Append one batch of records and write-log entries as one signed commit.",
            usage:
                "append LEDGER --signing-key KEY [--at RFC3339] [--idempotency-key KEY] [--kind KIND] [--json] FILE…",
            discussion: """
                Each FILE (or '-' for standard input) holds one record as the reference services produce it: an
                enforcement profile, a manifest (exact bytes; FILE.sig beside it is its detached signature), a
                mandate, a verdict or a verdict submission {verdict, consentedManifest}, a verdict receipt, a
                reference audit export {entries: [...]} (entries keep their sequence and hashes and must continue
                the ledger's chain; rows already in the ledger are skipped), or write requests without hashes
                (one JSON object per line) for which the writer computes sequence and chain.
                The retry contract: give each call a key of your own (--idempotency-key, e.g. your request id).
                An append whose key one of the last 256 batches carries is a retry of that batch: it logs nothing
                again (the same key with other write requests is refused). Without a key nothing is deduplicated:
                two calls with equal requests are two entries, as they were two calls.
                The batch is laid out as the commit it would make and judged by verify's own policies before
                anything is written; one finding refuses it all (exit 65, naming the policy and the input file)
                and the ledger is unchanged. A write the rules do not authorize is still logged (the backend made
                the call) and its conduct finding printed. When the ledger's packs have grown past twice their
                size after the last repack, append suggests 'onym-ledger repack'. Records already present are no-ops. A verdict that arrives without
                a receipt gets one at the batch time (--at) with the status verdict validation derives then.
                """,
            options: [
                OptionHelp(
                    names: "--signing-key KEY",
                    help:
                        "An allowed signer: an ed25519 private key file, or a public key (.pub) ssh-agent holds (required)."
                ),
                OptionHelp(
                    names: "--log-key KEY",
                    help: "The key the descriptor declares for the log's checkpoints, given like --signing-key "
                        + "(default: the signing key)."),
                OptionHelp(names: "--at RFC3339", help: "The batch time: commit time, receipt time (default: now)."),
                OptionHelp(
                    names: "--idempotency-key KEY",
                    help:
                        "The caller's id for this batch (1–128 of A-Z a-z 0-9 . _ : @ / + = -): retries log nothing twice."
                ),
                OptionHelp(
                    names: "--kind KIND",
                    help: "Read every FILE as \(InputKind.allCases.map(\.rawValue).joined(separator: "|"))."),
                OptionHelp(
                    names: "--json",
                    help: "Print {commit, counts, logSize, logHead, attempts, conductFindings} as JSON."),
            ])

        let ledger: String
        let files: [String]
        let key: any CommitSigner
        let logKey: (any CommitSigner)?
        let at: Instant
        let kind: InputKind?
        let idempotencyKey: String?
        let json: Bool

        init(parsing arguments: inout Arguments) throws(CLIError) {
            key = try CommonOptions.signingKey(&arguments)
            logKey = try CommonOptions.logKey(&arguments)
            at = try CommonOptions.batchTime(&arguments)
            idempotencyKey = try arguments.option("--idempotency-key")
            if let idempotencyKey, !LedgerTrailers.isValidIdempotencyKey(idempotencyKey) {
                throw .usage(
                    "--idempotency-key must be 1–128 of A-Z a-z 0-9 . _ : @ / + = -, such as req-2026-08-01-0042; got '\(idempotencyKey)'"
                )
            }
            if let kindName = try arguments.option("--kind") {
                guard let kind = InputKind(rawValue: kindName) else {
                    throw .usage(
                        "--kind must be one of \(InputKind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                self.kind = kind
            } else {
                kind = nil
            }
            json = arguments.flag("--json")
            let rest = try arguments.positionals()
            guard rest.count >= 2 else {
                throw .usage(rest.isEmpty ? "LEDGER is required" : "at least one FILE is required")
            }
            ledger = rest[0]
            files = Array(rest.dropFirst())
            guard files.filter({ $0 == "-" }).count <= 1 else { throw .usage("standard input ('-') can be read once") }
        }

        func run() throws(CLIError) -> ExitCode {
            var items: [BatchItem] = []
            for file in files {
                let bytes = try InputFile.read(file)
                let signature = file != "-" && InputFile.exists(file + ".sig") ? try InputFile.read(file + ".sig") : nil
                do {
                    items.append(try BatchImporter.read(bytes, source: file, kind: kind, detachedSignature: signature))
                } catch {
                    throw CLIError(error)
                }
            }
            let result: Ledger.AppendResult
            do {
                // Open (the writer lock and the replay state), append, close (the state saved).
                let appender = try Appender.open(ledger)
                defer { appender.close() }
                result = try appender.append(
                    items: items, signingKey: key, at: at, idempotencyKey: idempotencyKey, logKey: logKey)
            } catch {
                throw CLIError(error)
            }
            let counts = result.counts
            let conduct = result.conductFindings
            if json {
                Output.json(result.json)
            } else if let commit = result.commit {
                let already = counts.alreadyPresent > 0 ? "; \(counts.alreadyPresent) already present" : ""
                Output.out(
                    "appended \(commit.short): \(counts.total) new record\(counts.total == 1 ? "" : "s")\(already); log \(result.trailers.logSize) entries, head \(result.trailers.logHead.prefix(16))"
                )
            } else {
                Output.out("nothing new: all \(counts.alreadyPresent) records are already in the ledger (no commit)")
            }
            for finding in conduct {
                Output.err("conduct finding (the write is logged, as every call must be): \(finding)")
            }
            if let hint = result.packHint { Output.err("hint: \(hint)") }
            return .success
        }
    }
}
