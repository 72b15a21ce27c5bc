import LedgerFormat
import LedgerStore
import LedgerVerifier

extension OnymLedger {
    /// `gate`: the gate answer the backend (or the client) would give at time T.
    struct Gate: Command {
        static let configuration = CommandConfiguration(
            commandName: "gate",
            abstract: "Answer a gate check at time T from the verified ledger, in the reference wire shape.",
            usage: """
                gate LEDGER (--binding B | --user onym:key:…) --at RFC3339 [--apple-bits 00|01|10|11] [--trust KEY] [--json]
                       gate LEDGER --client (--binding B | --user onym:key:…) --at RFC3339 [--last-success RFC3339] [--offline]
                """,
            discussion: """
                The backend's answer (reference §4.3): clear; caseOpen with case notices; banned with the full ban
                state (a ban without appeal or new-holder URL is reported as nonconforming, profile §8.10); or
                checkRequired(reidentificationRequired) when the bits say banned but no verdict resolves the
                identity — routed to the new-holder path when the identity holds a fresh mandate (profile §8.1).
                --apple-bits is what Apple reports for the device (default: the ledger's last successful write).
                --client simulates the app (profile §5.2): with --offline it serves the answer last obtained at
                --last-success within the P3D grace, else neverChecked / offlineGraceExpired / clockRollback.
                The ledger is verified first (incrementally); a ledger that is not authentic is refused (exit 1); an
                authentic ledger with conduct findings is answered, with a note on stderr ("conductFindingCount" in JSON).
                """,
            options: [
                OptionHelp(names: "--binding B", help: "The device binding to answer for."),
                OptionHelp(
                    names: "--user onym:key:…",
                    help:
                        "The identity presenting the session (its newest mandate's binding, where a redeemed recovery moved it)."
                ),
                OptionHelp(names: "--at RFC3339", help: "The gate time (required)."),
                OptionHelp(names: "--apple-bits XX", help: "The device's DeviceCheck bits, bit1 then bit0."),
            ] + AuditOptions.help + [
                OptionHelp(
                    names: "--client", help: "Simulate the client's derivation instead of the backend's answer."),
                OptionHelp(names: "--last-success RFC3339", help: "Client: when the last check succeeded."),
                OptionHelp(names: "--offline", help: "Client: the backend cannot be reached."),
                OptionHelp(
                    names: "--json",
                    help:
                        "Print {binding, identities, result, intended, authorizedBy, write, warnings, explanation, "
                        + "conductFindingCount[, route, newHolderUrl]}: schemas/gate-output.schema.json."),
            ])

        let ledger: String
        let binding: String?
        let user: String?
        let at: Instant
        let appleBits: DeviceBits?
        let audit: AuditOptions
        let client: Bool
        let lastSuccess: Instant?
        let offline: Bool
        let json: Bool

        init(parsing arguments: inout Arguments) throws(CLIError) {
            binding = try arguments.option("--binding")
            user = try arguments.option("--user")
            guard (binding == nil) != (user == nil) else { throw .usage("give exactly one of --binding and --user") }
            if let user {
                do { _ = try OnymKey.parse(user, field: "--user") } catch { throw .usage("--user: \(error.reason)") }
            }
            at = try CommonOptions.requiredTime("--at", &arguments)
            if let bitsText = try arguments.option("--apple-bits") {
                guard let bits = DeviceBits(bitsText) else { throw .usage("--apple-bits must be 00, 01, 10 or 11") }
                appleBits = bits
            } else {
                appleBits = nil
            }
            audit = try AuditOptions(parsing: &arguments)
            client = arguments.flag("--client")
            lastSuccess = try CommonOptions.time("--last-success", &arguments)
            offline = arguments.flag("--offline")
            guard client || (lastSuccess == nil && !offline) else {
                throw .usage("--last-success and --offline go with --client")
            }
            json = arguments.flag("--json")
            let rest = try arguments.positionals()
            guard rest.count == 1 else { throw .usage("gate takes one LEDGER") }
            ledger = rest[0]
        }

        func run() throws(CLIError) -> ExitCode {
            var query = GateQuery(subject: binding.map { .binding($0) } ?? .user(user!), at: at)
            query.appleBits = appleBits
            query.client = client
            query.lastSuccess = lastSuccess
            query.offline = offline
            let ledger = try AuditedLedger.open(self.ledger, audit: audit, evaluationTime: query.evaluationTime)
            let report: GateQuery.Report
            do {
                report = try query.answer(over: ledger)
            } catch {
                throw .data(error.description)
            }
            if json {
                Output.json(report.json)
            } else {
                if let note = ledger.conductNote { Output.err(note) }
                report.lines.forEach(Output.out)
            }
            return .success
        }
    }
}
