import Foundation
import LedgerAllocator
import LedgerFormat
import LedgerVerifier

/// `onym-ledger <verb>`: a static-file, git-friendly ledger of Onym moderation enforcement.
enum OnymLedger {
    static let verbs: [any Command.Type] = [
        Init.self, Append.self, Follow.self, Verify.self, Gate.self, Reconcile.self, Keys.self, Log.self, Show.self,
        Repack.self, Inspect.self, Report.self, Export.self, Publish.self, Prove.self, CheckProof.self, Cosign.self,
        WitnessVerb.self, Textconv.self,
        GitSetup.self,
        Keygen.self,
    ]

    static let usage = """
        OVERVIEW: A signed, append-only git ledger of Onym moderation enforcement, and its offline verifier.

        USAGE: onym-ledger <verb> [options]

        VERBS:
        \(verbs.map { "  \($0.configuration.commandName.padded(to: 12))\($0.configuration.abstract)" }.joined(separator: "\n"))

        EXIT CODES: 0 ok, 1 rejected (not authentic, or a record has findings), 2 verified with conduct findings,
        64 usage or a refused request, 65 unreadable or refused input, 70 internal error.
        See 'onym-ledger <verb> --help' for a verb's options.
        """

    /// The tool's version and the ledger format version it reads and writes.
    static let version = "onym-ledger 0.3.0 (ledger format 2)"

    static func main() -> Int32 {
        Allocator.trace()
        var raw = Array(CommandLine.arguments.dropFirst())
        guard let verbName = raw.first else {
            Output.err(usage)
            return ExitCode.usage.rawValue
        }
        if verbName == "--version" {
            Output.out(version)
            return 0
        }
        if verbName == "--help" || verbName == "-h" || verbName == "help" {
            Output.out(usage)
            return 0
        }
        raw.removeFirst()
        guard let verb = verbs.first(where: { $0.configuration.commandName == verbName }) else {
            Output.err("onym-ledger: unknown verb '\(verbName)'\n\n\(usage)")
            return ExitCode.usage.rawValue
        }
        // Asked for JSON, a refusal is JSON too (on stdout, beside the message on stderr).
        let wantsJSON = raw.contains("--json")
        var arguments = Arguments(raw)
        if arguments.wantsHelp {
            Output.out(verb.helpText)
            return 0
        }
        do throws(CLIError) {
            let command = try verb.init(parsing: &arguments)
            return try command.run().rawValue
        } catch {
            Output.err("onym-ledger \(verbName): \(error.message)")
            if wantsJSON {
                Output.json(
                    JSONObject([
                        (
                            "error",
                            .object(
                                JSONObject([
                                    ("verb", .string(verbName)), ("message", .string(error.message)),
                                    ("exitCode", .integer(Int64(error.exitCode.rawValue))),
                                ]))
                        )
                    ]))
            }
            if error.exitCode == .usage { Output.err("See 'onym-ledger \(verbName) --help'.") }
            return error.exitCode.rawValue
        }
    }
}

exit(OnymLedger.main())
