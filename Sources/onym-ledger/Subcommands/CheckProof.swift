import Foundation
import LedgerFormat

extension OnymLedger {
    /// `check-proof`: checks a tlog-proof without the ledger (docs/FORMAT.md, "Transparency").
    struct CheckProof: Command {
        static let configuration = CommandConfiguration(
            commandName: "check-proof",
            abstract: "Check a tlog-proof from 'prove' without the ledger: log signature, witnesses, inclusion.",
            usage:
                "check-proof PROOF --log-key VKEY [--witness VKEY… --quorum K] [--max-age DURATION] [RECORD] [--json]",
            discussion: """
                PROOF is a c2sp.org/tlog-proof@v1 file (- for standard input). The checkpoint must carry a valid
                Ed25519 signature by the log's verifier key (the descriptor's "log"); with --witness, at least K of
                the witnesses' cosignature/v1 lines must verify (each no older than --max-age, e.g. P1D, when given);
                the inclusion proof must lead from the leaf to the checkpoint's root. With RECORD, the record's
                bytes must be the file the leaf states (its SHA-256). Exit 0 when everything holds, 1 when the proof
                does not, 64/65 for usage or unreadable input.
                """,
            options: [
                OptionHelp(
                    names: "--log-key VKEY", help: "The log's C2SP verifier key, or a file holding it (required)."),
                OptionHelp(names: "--witness VKEY", help: "A witness's cosignature/v1 verifier key (repeatable)."),
                OptionHelp(names: "--quorum K", help: "How many witnesses must have cosigned (default: all given)."),
                OptionHelp(
                    names: "--max-age DURATION", help: "The oldest cosignature that counts (ISO 8601, e.g. P1D)."),
                OptionHelp(names: "--json", help: "Print {verified, origin, size, index, path, cosigners}."),
            ])

        let proofFile: String
        let record: String?
        let logKey: NoteKey
        let witnesses: [NoteKey]
        let quorum: Int
        let maxAge: Int64?
        let json: Bool

        init(parsing arguments: inout Arguments) throws(CLIError) {
            guard let key = try arguments.option("--log-key") else { throw .usage("--log-key VKEY is required") }
            logKey = try TransparencyOptions.noteKey(key, option: "--log-key")
            let witnessOptions = try WitnessOptions(parsing: &arguments)
            witnesses = witnessOptions.keys
            quorum = witnessOptions.quorum
            maxAge = witnessOptions.maxAge
            json = arguments.flag("--json")
            let rest = try arguments.positionals()
            guard rest.count == 1 || rest.count == 2 else { throw .usage("check-proof takes PROOF [RECORD]") }
            proofFile = rest[0]
            record = rest.count == 2 ? rest[1] : nil
        }

        func run() throws(CLIError) -> ExitCode {
            let text = String(decoding: try InputFile.read(proofFile), as: UTF8.self)
            let proof: TlogProof
            do {
                proof = try TlogProof(parsing: text)
            } catch {
                throw .data("\(proofFile): \(error.description)")
            }
            let recordBytes = try record.map { (path: String) throws(CLIError) in try InputFile.read(path) }
            do {
                let outcome = try ProofCheck.check(
                    proof, logKey: logKey, witnesses: witnesses, quorum: quorum, record: recordBytes,
                    now: Int64(Date().timeIntervalSince1970), maxAge: maxAge)
                if json {
                    var object = JSONObject([
                        ("verified", .bool(true)), ("origin", .string(outcome.head.origin)),
                        ("size", .integer(Int64(outcome.head.size))), ("index", .integer(Int64(outcome.index))),
                        (
                            "cosigners",
                            .array(
                                outcome.cosigners.map {
                                    .object(JSONObject([("name", .string($0.name)), ("time", .integer($0.time))]))
                                })
                        ),
                    ])
                    object.set("path", outcome.path.map { .string($0) } ?? .null)
                    Output.json(object)
                } else {
                    let witnessed =
                        outcome.cosigners.isEmpty
                        ? "" : ", cosigned by \(outcome.cosigners.map(\.name).joined(separator: ", "))"
                    Output.out(
                        "PROVEN leaf \(outcome.index) (\(outcome.path ?? "no path")) is in \(outcome.head.origin) "
                            + "at size \(outcome.head.size)\(witnessed)")
                }
                return .success
            } catch {
                if json {
                    Output.json(JSONObject([("verified", .bool(false)), ("reason", .string(error.description))]))
                } else {
                    Output.out("NOT PROVEN: \(error.description)")
                }
                return .rejected
            }
        }
    }
}
