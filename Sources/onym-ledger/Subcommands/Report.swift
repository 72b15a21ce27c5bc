import Foundation
import LedgerFormat
import LedgerReport
import LedgerVerifier

extension OnymLedger {
    /// `report`: a static HTML site of the verified ledger, for the people it is about.
    struct Report: Command {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract:
                "Write a static HTML report of the verified ledger: overview, authorities, every device's history.",
            usage: "report LEDGER --out DIR [--witness VKEY… [--quorum K]] [--trust KEY] [--state DIR] [--json]",
            discussion: """
                The ledger is verified first (incrementally); a ledger that is not authentic gets no report (exit 1).
                A ledger with conduct findings gets a report that lists them first, with a note on stderr. The site
                has no server and no external assets: open DIR/index.html from disk or publish DIR on any static
                host. DIR must be new, empty, or hold an earlier report, which is replaced whole (a reader sees the
                old report or the new one, never a mix).
                Every page that shows records checks them in the reader's browser (verify.js, WebCrypto): each
                record's bytes, leaf and inclusion proof against the tip's checkpoint, signed by the log key the page
                names, and with --witness the witnesses' cosignatures (at least K). A checkpoint that would not check
                gets no report: exit 3 when the witnesses asked for did not cosign it (as verify says).
                """,
            options: [
                OptionHelp(names: "--out DIR", help: "Where to write the site (required)."),
                OptionHelp(names: "--json", help: "Print {folder, files, bytes, bindings, conductFindingCount}."),
                OptionHelp(
                    names: "--witness VKEY",
                    help: "A witness whose cosignature of the tip's checkpoint the pages check (repeatable)."),
                OptionHelp(
                    names: "--quorum K", help: "How many of the --witness keys must have cosigned (default: all)."),
            ] + AuditOptions.help)

        let ledger: String
        let out: String
        let audit: AuditOptions
        let json: Bool
        let witnesses: WitnessOptions

        init(parsing arguments: inout Arguments) throws(CLIError) {
            audit = try AuditOptions(parsing: &arguments)
            json = arguments.flag("--json")
            witnesses = try WitnessOptions(parsing: &arguments)
            guard witnesses.maxAge == nil else {
                throw .usage("report takes no --max-age: a page is read long after it is written")
            }
            guard let out = try arguments.option("--out") else { throw .usage("report needs --out DIR") }
            self.out = out
            let rest = try arguments.positionals()
            guard rest.count == 1 else { throw .usage("report takes one LEDGER") }
            ledger = rest[0]
        }

        func run() throws(CLIError) -> ExitCode {
            let audited = try AuditedLedger.open(ledger, audit: audit)
            if let note = audited.conductNote { Output.err(note) }
            let progress: ((Int, Int) -> Void)? =
                Output.stderrIsTerminal
                ? { done, total in
                    FileHandle.standardError.write(Data("\r\u{1B}[Kwriting device pages \(done)/\(total)".utf8))
                    if done == total { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
                } : nil
            let written: PublicReport.Written
            do {
                written = try PublicReport.write(
                    audited, to: out, witnesses: witnesses.keys, quorum: witnesses.quorum, progress: progress)
            } catch {
                if error.notWitnessed { throw CLIError(message: error.description, exitCode: .notWitnessed) }
                throw .data(error.description)
            }
            if json {
                Output.json(written.json)
            } else {
                Output.out(
                    "wrote \(written.files) files (\(written.bytes / 1024) KiB) for \(written.bindings) device bindings to "
                        + "\(written.folder); open \(written.folder)/index.html")
            }
            return .success
        }
    }
}
