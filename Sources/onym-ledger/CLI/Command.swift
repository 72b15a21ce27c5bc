import LedgerFormat
import LedgerVerifier
/// The CLI's exit codes (sysexits.h, as the README documents them).
struct ExitCode: Equatable, Error {
    let rawValue: Int32
    static let success = ExitCode(rawValue: 0)
    /// Verification failed, or a record has findings.
    static let rejected = ExitCode(rawValue: 1)
    /// Authentic, but the history shows the vendor broke the rules (conduct findings): `verify`.
    static let findings = ExitCode(rawValue: 2)
    /// Authentic, but the witness quorum `verify --witness` asked for has not cosigned the tip's checkpoint.
    static let notWitnessed = ExitCode(rawValue: 3)
    /// EX_USAGE: bad arguments.
    static let usage = ExitCode(rawValue: 64)
    /// EX_DATAERR: input data that cannot be read or parsed, or a batch that is refused.
    static let dataError = ExitCode(rawValue: 65)
    /// EX_SOFTWARE: an internal error.
    static let internalError = ExitCode(rawValue: 70)
}

/// How a verb describes itself, in the shape of swift-argument-parser's `CommandConfiguration`.
struct CommandConfiguration {
    let commandName: String
    let abstract: String
    let usage: String
    var discussion: String = ""
    var options: [OptionHelp] = []
    /// Command lines a user can copy, shown under EXAMPLES.
    var examples: [String] = []
}

struct OptionHelp {
    let names: String
    let help: String
}

/// A user-facing error: printed as `onym-ledger VERB: message` with its exit code.
struct CLIError: Error {
    let message: String
    let exitCode: ExitCode

    static func usage(_ message: String) -> CLIError { CLIError(message: message, exitCode: .usage) }
    static func data(_ message: String) -> CLIError { CLIError(message: message, exitCode: .dataError) }
}

/// One verb. `init(parsing:)` takes the arguments after the verb; `run()` calls a library front
/// end and maps its outcome to an exit code.
protocol Command: Sendable {
    static var configuration: CommandConfiguration { get }
    init(parsing arguments: inout Arguments) throws(CLIError)
    func run() throws(CLIError) -> ExitCode
}

extension Command {
    static var helpText: String {
        let config = configuration
        var text = "OVERVIEW: \(config.abstract)\n\nUSAGE: onym-ledger \(config.usage)\n"
        if !config.discussion.isEmpty { text += "\n\(config.discussion)\n" }
        if !config.options.isEmpty {
            text += "\nOPTIONS:\n"
            let width = min(34, (config.options.map(\.names.count).max() ?? 0) + 2)
            for option in config.options + [OptionHelp(names: "-h, --help", help: "Show help information.")] {
                let padded = option.names.padded(to: max(width, option.names.count + 2))
                text += "  \(padded)\(option.help)\n"
            }
        }
        let examples = config.examples + (Examples.byVerb[config.commandName] ?? [])
        if !examples.isEmpty {
            text += "\nEXAMPLES:\n" + examples.map { "  onym-ledger \($0)\n" }.joined()
        }
        return text
    }
}
