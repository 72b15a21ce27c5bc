import Foundation
import LedgerFormat
import LedgerVerifier

extension OnymLedger {
    /// `cosign`: act as a C2SP witness for the ledger's log.
    struct Cosign: Command {
        static let configuration = CommandConfiguration(
            commandName: "cosign",
            abstract:
                "Act as a witness: verify the ledger and cosign its checkpoint if it extends the last one cosigned.",
            usage:
                "cosign LEDGER --key WITNESS_KEY --name NAME [--at T] [--trust KEY] [--state DIR] [--out FILE] [--json]",
            discussion: """
                The ledger is verified first (incrementally). The tip's checkpoint is cosigned (C2SP cosignature/v1,
                type 0x04, timestamped now or --at) only if it is consistent with the last checkpoint this witness key
                cosigned for the log — kept in the state folder (witness/<origin hash>/<key ID>.json), never in the
                ledger; a log that does not extend it is a split view or a rollback: nothing is signed, exit 1.
                Prints the cosigned checkpoint note (the log's signature and this witness's line): the vendor adds
                it to the ledger with 'append', where 'verify --witness' and 'check-proof --witness' find it. The
                witness's verifier key is printed on stderr (--json: "key").
                """,
            options: [
                OptionHelp(
                    names: "--key WITNESS_KEY", help: "The witness's ed25519 key, given like --signing-key (required)."),
                OptionHelp(names: "--name NAME", help: "The witness's name in its verifier key and lines (required)."),
                OptionHelp(
                    names: "--at T", help: "The cosignature's timestamp, an RFC 3339 date-time (default: now)."),
                OptionHelp(names: "--out FILE", help: "Write the cosigned checkpoint here instead of standard output."),
            ] + AuditOptions.help + [
                OptionHelp(names: "--json", help: "Print {origin, size, previousSize, key, note}.")
            ])

        let ledger: String
        let key: any CommitSigner
        let name: String
        let out: String?
        /// The cosignature's timestamp: the witness's clock, or `--at`.
        let at: Instant
        let audit: AuditOptions
        let json: Bool

        init(parsing arguments: inout Arguments) throws(CLIError) {
            let identity = try WitnessIdentity(parsing: &arguments)
            key = identity.key
            name = identity.name
            out = try arguments.option("--out")
            at = try CommonOptions.batchTime(&arguments)
            audit = try AuditOptions(parsing: &arguments)
            json = arguments.flag("--json")
            let rest = try arguments.positionals()
            guard rest.count == 1 else { throw .usage("cosign takes one LEDGER") }
            ledger = rest[0]
        }

        func run() throws(CLIError) -> ExitCode {
            let log = try TransparencyOptions.log(of: ledger, audit: audit)
            guard let stateRoot = audit.stateRoot else { throw .usage("cosign needs a state folder (--state DIR)") }
            let cosigned: Witness.Cosigned
            do {
                cosigned = try Witness.cosign(
                    log, name: name, signer: key, stateRoot: stateRoot, now: at.seconds)
            } catch {
                throw CLIError(message: error.description, exitCode: error.isInconsistent ? .rejected : .dataError)
            }
            let text = cosigned.note.formatted
            if let out {
                do {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
                } catch {
                    throw .data("\(out): cannot write (\(error.localizedDescription))")
                }
            }
            if json {
                var object = JSONObject([
                    ("origin", .string(log.key.name)), ("size", .integer(Int64(log.size))),
                    ("key", .string(cosigned.key.description)), ("note", .string(text)),
                ])
                object.set("previousSize", cosigned.previousSize.map { .integer(Int64($0)) } ?? .null)
                Output.json(object)
            } else {
                if out == nil { Output.out(text) }
                Output.err(
                    "cosigned \(log.key.name) at size \(log.size)"
                        + (cosigned.previousSize.map { " (consistent with size \($0))" } ?? " (first cosignature)")
                        + "; witness key \(cosigned.key)")
            }
            return .success
        }
    }
}
