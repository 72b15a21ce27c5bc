import LedgerFormat
import LedgerStore
import LedgerVerifier

extension OnymLedger {
    /// `reconcile`: the writes the backend would make at time T — a dry run.
    struct Reconcile: Command {
        static let configuration = CommandConfiguration(
            commandName: "reconcile",
            abstract:
                "Dry-run reconciliation at time T: last written bits, intended bits, the write that would follow.",
            usage: "reconcile LEDGER --at RFC3339 [--binding B] [--all] [--trust KEY_OR_FILE] [--json]",
            discussion: """
                For each device binding: the bits of its last successful write (from the write log), the bits the
                rules intend at T, and the write the backend would make at the device's next session with its
                authorizedBy. Overdue clears — bans that ended while the device still carries bit1 (profile §8.6)
                — are marked. Nothing is written. Human output lists only bindings with a pending write unless
                --all is given. The ledger is verified first (incrementally). On an authentic ledger with conduct
                findings, every binding whose last write the rules do not authorize gets its corrective write, marked
                with the entry it corrects.
                """,
            options: [
                OptionHelp(names: "--at RFC3339", help: "The reconciliation time (required)."),
                OptionHelp(names: "--binding B", help: "Only this binding."),
                OptionHelp(names: "--all", help: "List every binding, not only those with a pending write."),
                OptionHelp(
                    names: "--json",
                    help:
                        "Print {at, bindings, pendingWrites, overdueClears, conductFindingCount, rows}: "
                        + "schemas/reconcile-output.schema.json."),
            ] + AuditOptions.help)

        let ledger: String
        let at: Instant
        let binding: String?
        let all: Bool
        let audit: AuditOptions
        let json: Bool

        init(parsing arguments: inout Arguments) throws(CLIError) {
            at = try CommonOptions.requiredTime("--at", &arguments)
            binding = try arguments.option("--binding")
            all = arguments.flag("--all")
            audit = try AuditOptions(parsing: &arguments)
            json = arguments.flag("--json")
            let rest = try arguments.positionals()
            guard rest.count == 1 else { throw .usage("reconcile takes one LEDGER") }
            ledger = rest[0]
        }

        func run() throws(CLIError) -> ExitCode {
            let ledger = try AuditedLedger.open(self.ledger, audit: audit, evaluationTime: at)
            if let note = ledger.conductNote { Output.err(note) }
            let report: ReconcileQuery.Report
            do {
                report = try ReconcileQuery(at: at, binding: binding).reconcile(ledger)
            } catch {
                throw .data(error.description)
            }
            if json {
                Output.json(report.json)
            } else {
                report.lines(all: all || binding != nil).forEach(Output.out)
            }
            return .success
        }
    }
}
