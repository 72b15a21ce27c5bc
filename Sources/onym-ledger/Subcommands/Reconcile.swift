import LedgerFormat
import LedgerStore
import LedgerVerifier
import LedgerWriter

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
                OptionHelp(names: "--json", help: "Print every row as JSON."),
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
            let verified = try VerifiedLedger(ledger, audit: audit, evaluationTime: at)
            let history = verified.history
            let unauthorized = verified.unauthorizedWrites
            if let note = verified.conductNote { Output.err(note) }
            if let binding, !history.knows(binding: binding) {
                throw .data(
                    "--binding \(binding): no mandate, verdict or write in this ledger names this device binding")
            }
            let written = history.lastWritten(at: at)
            let bindings =
                binding.map { [$0] }
                ?? Array(history.bindings.union(history.facts.keys).union(history.lastWritten.keys)).sorted()
            let rows = bindings.map { binding in
                Reconciler.row(
                    binding: binding, facts: history.facts[binding] ?? [], lastWritten: written[binding],
                    revocations: history.revocations, at: at)
            }
            let pending = rows.filter { $0.write != nil }
            let width = (bindings.map(\.count).max() ?? 7) + 2
            let overdue = rows.filter(\.isOverdueClear)
            if json {
                Output.json(
                    JSONObject([
                        ("at", .string(at.rfc3339)), ("bindings", .integer(Int64(rows.count))),
                        ("pendingWrites", .integer(Int64(pending.count))),
                        ("overdueClears", .integer(Int64(overdue.count))),
                        ("conductFindings", .integer(Int64(verified.conductFindings.count))),
                        (
                            "rows",
                            .array(
                                rows.map { row in
                                    var object = JSONObject([
                                        ("binding", .string(row.binding)),
                                        ("intended", .string(row.intended.bits.description)),
                                        ("authorizedBy", .string(row.intended.authorizedBy)),
                                        ("overdueClear", .bool(row.isOverdueClear)),
                                    ])
                                    object.set("lastWritten", row.lastWritten.map { .string($0.description) } ?? .null)
                                    object.set("write", row.write.map { .string($0.description) } ?? .null)
                                    let identities = history.identities(onBinding: row.binding)
                                    if identities.count > 1 {
                                        object.set("identities", .array(identities.map { .string($0.user) }))
                                    }
                                    object.set(
                                        "correctsUnauthorizedWrites",
                                        .array((unauthorized[row.binding] ?? []).map { .integer($0) }))
                                    return .object(object)
                                })
                        ),
                    ]))
                return .success
            }
            Output.out(
                "reconcile at \(at): \(rows.count) bindings, \(pending.count) pending writes, \(overdue.count) overdue clears"
            )
            Output.out("binding".padded(to: width) + "last  intended  write  authorizedBy")
            for row in rows where all || row.write != nil || binding != nil {
                let last = row.lastWritten?.description ?? "--"
                let write = row.write?.description ?? "none"
                var mark = row.isOverdueClear ? "  (overdue clear)" : ""
                let identities = history.identities(onBinding: row.binding).count
                if identities > 1 { mark += "  (mandates of \(identities) identities)" }
                if let entries = unauthorized[row.binding], row.write != nil {
                    mark += "  (corrects unauthorized write \(entries.map { "#\($0)" }.joined(separator: ", ")))"
                }
                Output.out(
                    row.binding.padded(to: width) + last.padded(to: 6) + row.intended.bits.description.padded(to: 10)
                        + write.padded(to: 7) + row.intended.authorizedBy + mark)
            }
            return .success
        }
    }
}
