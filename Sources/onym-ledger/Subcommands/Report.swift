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
            usage: "report LEDGER --out DIR [--trust KEY] [--state DIR] [--json]",
            discussion: """
                The ledger is verified first (incrementally); a ledger that is not authentic gets no report (exit 1).
                A ledger with conduct findings gets a report that lists them first, with a note on stderr. The site
                has no server and no external assets: open DIR/index.html from disk or publish DIR on any static
                host. DIR must be new, empty, or hold an earlier report, which is replaced whole (a reader sees the
                old report or the new one, never a mix).
                """,
            options: [
                OptionHelp(names: "--out DIR", help: "Where to write the site (required)."),
                OptionHelp(names: "--json", help: "Print {folder, files, bytes, bindings, conductFindingCount}."),
            ] + AuditOptions.help)

        let ledger: String
        let out: String
        let audit: AuditOptions
        let json: Bool

        init(parsing arguments: inout Arguments) throws(CLIError) {
            audit = try AuditOptions(parsing: &arguments)
            json = arguments.flag("--json")
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
                written = try PublicReport.write(audited, to: out, progress: progress)
            } catch {
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
