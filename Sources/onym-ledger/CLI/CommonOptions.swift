import Foundation
import LedgerFormat
import LedgerStore
import LedgerWriter

/// Option readers shared by several verbs.
enum CommonOptions {
    /// `--at RFC3339`, or the current time when absent (the only clock read is here, in the CLI;
    /// the library always takes the time as an argument).
    static func batchTime(_ arguments: inout Arguments) throws(CLIError) -> Instant {
        try time("--at", &arguments) ?? Instant(seconds: Int64(Date().timeIntervalSince1970))
    }

    /// A time option (`--at`, `--last-success`): absent, or an RFC 3339 date-time — one wording for
    /// every verb, with an example value.
    static func time(_ name: String, _ arguments: inout Arguments) throws(CLIError) -> Instant? {
        guard let text = try arguments.option(name) else { return nil }
        guard let instant = Instant.parse(text) else {
            throw .usage("\(name) must be an RFC 3339 date-time such as 2026-08-01T12:00:00Z; got '\(text)'")
        }
        return instant
    }

    /// A time option the verb cannot run without.
    static func requiredTime(_ name: String, _ arguments: inout Arguments) throws(CLIError) -> Instant {
        guard let instant = try time(name, &arguments) else {
            throw .usage("\(name) is required: an RFC 3339 date-time such as 2026-08-01T12:00:00Z")
        }
        return instant
    }

    /// `--signing-key`: the key that signs commits, the way git's `user.signingkey` names it — a private
    /// key file, or a public key (`.pub` file or `ssh-ed25519 AAAA…`) whose private half `ssh-agent` holds
    /// (`SSH_AUTH_SOCK`). A passphrase-protected key file with its `.pub` beside it signs through the agent.
    static func signingKey(_ arguments: inout Arguments) throws(CLIError) -> any CommitSigner {
        guard let signer = try signer(&arguments, option: "--signing-key") else {
            throw .usage("--signing-key KEY is required (a private key file, or a public key held by ssh-agent)")
        }
        return signer
    }

    /// `--log-key`: the key that signs the ledger's checkpoints (docs/FORMAT.md, "Transparency"), given like
    /// `--signing-key`; nil when absent (the signing key signs them).
    static func logKey(_ arguments: inout Arguments) throws(CLIError) -> (any CommitSigner)? {
        try signer(&arguments, option: "--log-key")
    }

    static func signer(_ arguments: inout Arguments, option name: String) throws(CLIError)
        -> (any CommitSigner)?
    {
        guard let path = try arguments.option(name) else { return nil }
        if path.hasPrefix(OpenSSHKey.keyType + " ") { return try agentSigner(path, option: path) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .data("\(name) \(path): cannot read this file")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix(OpenSSHKey.keyType + " ") { return try agentSigner(text, option: path) }
        do {
            return try SigningKey.load(path)
        } catch {
            if error.reason.contains("encrypted"), let pub = FileManager.default.contents(atPath: path + ".pub") {
                return try agentSigner(String(decoding: pub, as: UTF8.self), option: path)
            }
            throw .usage("\(name) \(error.description)")
        }
    }

    /// The ssh-agent signer for a public key line.
    private static func agentSigner(_ line: String, option: String) throws(CLIError) -> any CommitSigner {
        let publicKey: Ed25519.PublicKey
        do {
            publicKey = try OpenSSHKey.parsePublicKey(line.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            throw .usage("--signing-key \(option): \(error.reason)")
        }
        guard let socket = ProcessInfo.processInfo.environment["SSH_AUTH_SOCK"], !socket.isEmpty else {
            throw .usage(
                "--signing-key \(option) names a public key whose private half ssh-agent should hold, but "
                    + "SSH_AUTH_SOCK is not set (start the agent: eval $(ssh-agent); ssh-add KEY)")
        }
        return SSHAgentSigner(publicKey: publicKey, socketPath: socket)
    }

    /// An SSH public key given as a `.pub` file path or as the `ssh-ed25519 AAAA…` text itself.
    static func sshPublicKey(_ text: String, option: String) throws(CLIError) -> Ed25519.PublicKey {
        var line = text
        if !text.hasPrefix("ssh-ed25519 "), let data = FileManager.default.contents(atPath: text) {
            line = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        do {
            return try OpenSSHKey.parsePublicKey(line)
        } catch {
            throw .usage("\(option) \(text): \(error.reason)")
        }
    }

    static func positionalLedger(_ rest: [String], verb: String) throws(CLIError) -> String {
        guard let ledger = rest.first else { throw .usage("LEDGER is required") }
        return ledger
    }
}

extension CLIError {
    /// A refused batch, init or rotation, or a ledger git cannot read or write: exit 65, the message
    /// naming file, record and rule. A failure the writer has no rule for is a bug: exit 70.
    init(_ error: AppendError) {
        switch error.kind {
        case .refused, .git: self.init(message: error.description, exitCode: .dataError)
        case .internalError:
            self.init(
                message: "internal error (a bug; nothing was written): \(error.description)", exitCode: .internalError)
        }
    }
}
