import LedgerFormat
import LedgerStore
import LedgerVerifier
import LedgerWriter

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
                authentic ledger with conduct findings is answered, with a note on stderr ("conductFindings" in JSON).
                """,
            options: [
                OptionHelp(names: "--binding B", help: "The device binding to answer for."),
                OptionHelp(
                    names: "--user onym:key:…",
                    help: "The identity presenting the session (its newest mandate's binding)."),
                OptionHelp(names: "--at RFC3339", help: "The gate time (required)."),
                OptionHelp(names: "--apple-bits XX", help: "The device's DeviceCheck bits, bit1 then bit0."),
            ] + AuditOptions.help + [
                OptionHelp(
                    names: "--client", help: "Simulate the client's derivation instead of the backend's answer."),
                OptionHelp(names: "--last-success RFC3339", help: "Client: when the last check succeeded."),
                OptionHelp(names: "--offline", help: "Client: the backend cannot be reached."),
                OptionHelp(
                    names: "--json", help: "Print {result, intended, write, authorizedBy, warnings, explanation}."),
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
            let verified = try VerifiedLedger(ledger, audit: audit, evaluationTime: max(at, lastSuccess ?? at))
            let history = verified.history
            let resolvedBinding: String
            if let binding {
                guard history.knows(binding: binding) else {
                    throw .data(
                        "--binding \(binding): no mandate, verdict or write in this ledger names this device binding")
                }
                resolvedBinding = binding
            } else {
                let mandates = history.mandates(ofUser: user!).filter { $0.acceptedAt <= at }
                guard let newest = mandates.max(by: { $0.acceptedAt < $1.acceptedAt }) else {
                    // Profile §5.2: no active mandate is not an operational answer; it routes to the consent gate.
                    return print(
                        verified, result: .checkRequired(.enrollmentLost), answer: nil, binding: nil,
                        explanation:
                            "\(user!) holds no mandate in this ledger at \(at): the app routes to the consent gate.")
                }
                resolvedBinding = newest.deviceBinding
            }
            func backend(at time: Instant) -> GateEvaluator.Answer {
                GateEvaluator.answer(
                    history.gateInput(binding: resolvedBinding, user: user, appleBits: appleBits, at: time),
                    lookup: history.lookup)
            }
            guard client else {
                let answer = backend(at: at)
                return print(
                    verified, result: answer.result, answer: answer, binding: resolvedBinding,
                    explanation: answer.explanation)
            }
            var state = ClientGate()
            if let lastSuccess { state.receive(backend(at: lastSuccess).result, generation: 1, at: lastSuccess) }
            if !offline {
                let answer = backend(at: at)
                state.receive(answer.result, generation: 2, at: at)
                return print(
                    verified, result: answer.result, answer: answer, binding: resolvedBinding,
                    explanation: answer.explanation + " Next check due \(state.nextCheckDue!).")
            }
            let result = state.offlineAnswer(at: at)
            let why: String
            switch result {
            case .checkRequired(.neverChecked):
                why = "The backend is unreachable and the app has never completed a check."
            case .checkRequired(.clockRollback): why = "The device clock reads earlier than the last successful check."
            case .checkRequired(.offlineGraceExpired):
                why = "The backend has been unreachable for more than the P3D offline grace since \(lastSuccess!)."
            default:
                why = "The backend is unreachable; within the P3D grace the app serves the answer of \(lastSuccess!)."
            }
            return print(verified, result: result, answer: nil, binding: resolvedBinding, explanation: why)
        }

        private func print(
            _ verified: VerifiedLedger, result: GateResult, answer: GateEvaluator.Answer?, binding: String?,
            explanation: String
        )
            -> ExitCode
        {
            if json {
                var object = JSONObject([
                    ("result", .object(result.json)), ("explanation", .string(explanation)),
                    ("conductFindings", .integer(Int64(verified.conductFindings.count))),
                ])
                if let binding {
                    object.set("binding", .string(binding))
                    object.set(
                        "identities",
                        .array(
                            verified.history.identities(onBinding: binding).map {
                                .object(
                                    JSONObject([
                                        ("user", .string($0.user)), ("acceptedAt", .string($0.acceptedAt.rfc3339)),
                                    ]))
                            }))
                }
                if let answer {
                    object.set("intended", .string(answer.intended.bits.description))
                    object.set("authorizedBy", .string(answer.intended.authorizedBy))
                    object.set("write", answer.write.map { .string($0.description) } ?? .null)
                    object.set("warnings", .array(answer.warnings.map { .string($0) }))
                    if let route = answer.route { object.set("route", .string(route)) }
                    if let url = answer.newHolderUrl { object.set("newHolderUrl", .string(url)) }
                }
                Output.json(object)
                return .success
            }
            if let note = verified.conductNote { Output.err(note) }
            Output.out(String(decoding: CanonicalJSON.encode(result.json), as: UTF8.self))
            Output.out(explanation)
            if let binding {
                let identities = verified.history.identities(onBinding: binding)
                if identities.count > 1 {
                    Output.out(
                        "Mandates of \(identities.count) identities name \(binding): "
                            + identities.map { "\($0.user) (accepted \($0.acceptedAt))" }.joined(separator: ", ") + ".")
                }
            }
            if let answer {
                if let write = answer.write {
                    Output.out(
                        "The backend would write bits \(write) now, authorized by \(answer.intended.authorizedBy).")
                }
                if let route = answer.route {
                    Output.out("Route: \(route)\(answer.newHolderUrl.map { " — \($0)" } ?? "").")
                }
                for warning in answer.warnings { Output.out("warning: \(warning)") }
            }
            return .success
        }
    }
}
