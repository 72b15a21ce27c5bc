import Foundation
import LedgerFormat
import LedgerWriter

/// Option readers shared by several verbs.
enum CommonOptions {
    /// `--at RFC3339`, or the current time when absent (the only clock read is here, in the CLI;
    /// the library always takes the time as an argument).
    static func batchTime(_ arguments: inout Arguments) throws(CLIError) -> Instant {
        guard let text = try arguments.option("--at") else {
            return Instant(seconds: Int64(Date().timeIntervalSince1970))
        }
        guard let instant = Instant.parse(text) else { throw .usage("--at must be an RFC 3339 date-time, got \(text)") }
        return instant
    }

    static func signingKey(_ arguments: inout Arguments) throws(CLIError) -> Ed25519.PrivateKey {
        guard let path = try arguments.option("--signing-key") else { throw .usage("--signing-key KEY is required") }
        do {
            return try SigningKey.load(path)
        } catch {
            throw .usage("--signing-key \(error.description)")
        }
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
    /// A refused batch, init or rotation: exit 65, the message naming file, record and rule.
    init(_ error: AppendError) {
        self.init(message: error.description, exitCode: .dataError)
    }
}
