import LedgerFormat
import LedgerStore

extension OnymLedger {
    /// `log`: the ledger's batches, newest first.
    struct Log: Command {
        static let configuration = CommandConfiguration(
            commandName: "log",
            abstract: "List the ledger's batches (signed commits), newest first.",
            usage: "log LEDGER [--json]",
            discussion: "Shows what the repository holds; it does not verify (use 'verify').",
            options: [OptionHelp(names: "--json", help: "Print a JSON array of batches.")])

        let ledger: String
        let json: Bool

        init(parsing arguments: inout Arguments) throws(CLIError) {
            json = arguments.flag("--json")
            let rest = try arguments.positionals()
            guard rest.count == 1 else { throw .usage("log takes one LEDGER") }
            ledger = rest[0]
        }

        func run() throws(CLIError) -> ExitCode {
            let batches: [LedgerBrowser.Batch]
            do {
                batches = try LedgerBrowser.batches(ledger)
            } catch {
                throw .data(error.description)
            }
            if json {
                Output.out(
                    String(
                        decoding: CanonicalJSON.encode(.array(batches.map { .object($0.json) })), as: UTF8.self))
                return .success
            }
            for batch in batches {
                let time = Instant(seconds: batch.time).rfc3339
                let log = batch.trailers.map { "log \($0.logSize)" } ?? "no trailers"
                Output.out(
                    "\(batch.commit.short)  \(time)  \(batch.subject)  [\(log), \(batch.files.count) files, signer \(batch.signer ?? "NONE")]"
                )
            }
            return .success
        }
    }

    /// `show`: one batch, record, write entry or file.
    struct Show: Command {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one batch, record or write entry of a ledger.",
            usage: "show LEDGER REF",
            discussion: """
                \(LedgerReferenceHelp.text)
                Records print their stored bytes exactly (the path on standard error).
                """,
            options: [OptionHelp(names: "--json", help: "For a batch, print it as JSON.")])

        let ledger: String
        let ref: String
        let json: Bool

        init(parsing arguments: inout Arguments) throws(CLIError) {
            json = arguments.flag("--json")
            let rest = try arguments.positionals()
            guard rest.count == 2 else { throw .usage("show takes LEDGER and REF") }
            ledger = rest[0]
            ref = rest[1]
        }

        func run() throws(CLIError) -> ExitCode {
            let shown: LedgerBrowser.Shown
            do {
                shown = try LedgerBrowser.show(ledger, ref: ref)
            } catch {
                throw CLIError(error)
            }
            switch shown {
            case .file(let path, let bytes):
                if !json { Output.err(path) }
                Output.out(String(decoding: bytes, as: UTF8.self))
            case .batch(let batch):
                if json {
                    Output.json(batch.json)
                } else {
                    Output.out(
                        "commit \(batch.commit.hex)\ntime   \(Instant(seconds: batch.time).rfc3339)\nsigner \(batch.signer ?? "NONE")\n\n\(batch.subject)\n"
                    )
                    if let trailers = batch.trailers {
                        Output.out("log size \(trailers.logSize), head \(trailers.logHead)\n")
                    }
                    for file in batch.files { Output.out("  \(file)") }
                }
            }
            return .success
        }
    }
}
