import Foundation
import LedgerFormat
import LedgerStore
import LedgerVerifier

/// The auditor's options every verb that verifies shares: `--trust`, `--state`, and how the
/// verifier's refusals become exit codes.
struct AuditOptions {
    var trust: TrustRoot?
    /// The auditor's state folder (`--state DIR`, else `$XDG_STATE_HOME/onym-ledger`, else
    /// `~/.local/state/onym-ledger`).
    var stateRoot: String?

    init(parsing arguments: inout Arguments) throws(CLIError) {
        trust = try Self.trustRoot(try arguments.option("--trust"))
        stateRoot =
            try arguments.option("--state")
            ?? AuditorState.defaultRoot(environment: ProcessInfo.processInfo.environment)
    }

    static let help = [
        OptionHelp(
            names: "--trust KEY_OR_FILE",
            help:
                "The root of trust: an ssh-ed25519 public key or .pub file, an allowed-signers file, or a SHA256: fingerprint."
        ),
        OptionHelp(
            names: "--state DIR",
            help: "The auditor's state folder (default $XDG_STATE_HOME/onym-ledger or ~/.local/state/onym-ledger)."),
    ]

    /// `--trust`: a key or fingerprint given inline, or a file. A file that cannot be read is bad input
    /// (65); text that is no key, fingerprint or allowed-signers list is a usage error (64).
    static func trustRoot(_ text: String?) throws(CLIError) -> TrustRoot? {
        guard let text else { return nil }
        var source = text
        if !text.hasPrefix("SHA256:"), !text.hasPrefix("ssh-ed25519 ") {
            guard let data = FileManager.default.contents(atPath: text) else {
                throw .data(
                    "--trust \(text): cannot read this file (give an ssh-ed25519 key, a .pub or allowed-signers file, or a SHA256: fingerprint)"
                )
            }
            source = String(decoding: data, as: UTF8.self)
        }
        do {
            return try TrustRoot.parse(source)
        } catch {
            throw .usage("--trust \(text): \(error.reason)")
        }
    }

    /// A verification that could not run, as the CLI's exit code: 64 for a refusal (no trust, a trust
    /// that contradicts the remembered one, an unadmitted --since), 65 for unreadable input, 70 internal.
    static func cliError(_ error: Verifier.InputError) -> CLIError {
        switch error.kind {
        case .noTrustRoot, .refused: .usage(error.description)
        case .unreadable: .data(error.description)
        case .internalError: CLIError(message: error.description, exitCode: .internalError)
        }
    }
}
