import Foundation
import LedgerFormat
import LedgerReport
import LedgerStore
import LedgerVerifier

extension OnymLedger {
    /// `export dsa`: the restrictions the ledger's bans really imposed, as DSA statements of reasons.
    struct Export: Command {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract:
                "Export the restrictions the verified ledger's bans imposed as DSA Transparency Database statements.",
            usage: """
                export dsa LEDGER --out FILE [--config FILE] [--format jsonl|csv] [--trust KEY] [--state DIR]
                       export dsa --print-config
                """,
            discussion: """
                One statement of reasons per restriction that took effect — per ban the rules executed, asked of the
                fold at every instant its answer changes; a ban that never took effect files nothing, and a reversal is
                the end date of the restriction it ended — in the database's submission shape
                (schemas/dsa-statement-of-reasons.schema.json): puid is 'onym-' and the ban's content address,
                application_date the day it took effect, end_date_account_restriction the day it ended (or its expiry
                while in force), decision_facts names the authority, the case, what ended it, its reasoning and where
                the signed verdict is. What the ledger cannot say — account type,
                source, automation, content type, and each violation class's category and ground — comes from --config
                (default: 'export dsa --print-config' prints it; docs/DSA.md explains every field). --format defaults
                to csv for a FILE ending in .csv, else jsonl (one JSON object per line); --out - prints. The ledger is
                verified first; a ledger that is not authentic is refused (exit 1). The file is written whole or not
                at all.
                """,
            options: [
                OptionHelp(names: "--out FILE", help: "Where to write the statements ('-' for standard output)."),
                OptionHelp(names: "--config FILE", help: "The field mapping (JSON); default: the built-in one."),
                OptionHelp(names: "--format jsonl|csv", help: "JSON Lines or CSV (default: by --out's extension)."),
                OptionHelp(names: "--print-config", help: "Print the default config and exit."),
            ] + AuditOptions.help)

        let ledger: String?
        let out: String?
        let config: String?
        let csv: Bool
        let printConfig: Bool
        let audit: AuditOptions

        init(parsing arguments: inout Arguments) throws(CLIError) {
            audit = try AuditOptions(parsing: &arguments)
            printConfig = arguments.flag("--print-config")
            out = try arguments.option("--out")
            config = try arguments.option("--config")
            let format = try arguments.option("--format")
            let rest = try arguments.positionals()
            guard rest.first == "dsa" else { throw .usage("export knows one format: 'export dsa LEDGER --out FILE'") }
            if printConfig {
                guard rest.count == 1 else { throw .usage("export dsa --print-config takes no LEDGER") }
                ledger = nil
                csv = false
                return
            }
            guard rest.count == 2 else { throw .usage("export dsa takes one LEDGER") }
            guard let out else { throw .usage("export dsa needs --out FILE (or --out - for standard output)") }
            ledger = rest[1]
            switch format {
            case nil: csv = out.hasSuffix(".csv")
            case "csv": csv = true
            case "jsonl": csv = false
            case let other?: throw .usage("--format \(other): give jsonl or csv")
            }
        }

        func run() throws(CLIError) -> ExitCode {
            if printConfig {
                Output.out(DSAConfig.defaultText)
                return .success
            }
            let mapping: DSAConfig
            if let config {
                do {
                    mapping = try DSAConfig(json: try CanonicalJSON.parse(try InputFile.read(config)))
                } catch let error as CLIError {
                    throw error
                } catch let error as LedgerFormatError {
                    throw .data("\(config): \(error.reason) (at \(error.path ?? "$"))")
                } catch {
                    throw .data("\(config): \(error)")
                }
            } else {
                mapping = DSAConfig.standard
            }
            let audited = try AuditedLedger.open(ledger!, audit: audit)
            if let note = audited.conductNote { Output.err(note) }
            let contents: LedgerContents
            do { contents = try LedgerContents(audited) } catch { throw .data("\(ledger!): \(error)") }
            let statements = DSAExport.statements(
                contents, restrictions: DSAExport.restrictions(of: audited.history, upTo: audited.verifiedAt),
                config: mapping)
            let text = csv ? DSAExport.csv(statements) : DSAExport.jsonLines(statements)
            if out == "-" {
                FileHandle.standardOutput.write(Data(text.utf8))
            } else {
                do {
                    try DurableFile.write(Array(text.utf8), to: out!)
                } catch {
                    throw .data(error.description)
                }
                Output.err("wrote \(statements.count) statements to \(out!)")
            }
            return .success
        }
    }
}
