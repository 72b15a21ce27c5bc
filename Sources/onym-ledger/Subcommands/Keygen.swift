import LedgerFormat
import LedgerStore
import LedgerWriter

extension OnymLedger {
    /// `keygen`: writes an OpenSSH ed25519 key pair and prints its `onym:key:`.
    struct Keygen: Command {
        static let configuration = CommandConfiguration(
            commandName: "keygen",
            abstract: "Write an OpenSSH ed25519 key pair (PATH and PATH.pub) and print its onym:key.",
            usage: "keygen --out PATH [--seed HEX] [--comment TEXT] [--json]",
            discussion: """
                The private key is an unencrypted openssh-key-v1 file, as 'ssh-keygen -t ed25519 -N ""' writes,
                so git and ssh-keygen can use it too. --seed makes it reproducible (tests, examples): never use a
                known seed for a real ledger. Existing files are never overwritten.
                """,
            options: [
                OptionHelp(
                    names: "--out PATH", help: "Where to write the private key; the public key goes to PATH.pub."),
                OptionHelp(names: "--seed HEX", help: "A 32-byte seed as 64 hex digits (default: random)."),
                OptionHelp(names: "--comment TEXT", help: "The key comment (default: onym-ledger)."),
                OptionHelp(names: "--json", help: "Print {onymKey, fingerprint, privateKey, publicKey} as JSON."),
            ])

        let out: String
        let seed: [UInt8]?
        let comment: String
        let json: Bool

        init(parsing arguments: inout Arguments) throws(CLIError) {
            guard let out = try arguments.option("--out") else { throw .usage("--out PATH is required") }
            self.out = out
            if let hex = try arguments.option("--seed") {
                guard hex.utf8.count == 64, let bytes = Hex.decode(hex.lowercased()) else {
                    throw .usage("--seed must be 64 hex digits (32 bytes)")
                }
                seed = bytes
            } else {
                seed = nil
            }
            comment = try arguments.option("--comment") ?? "onym-ledger"
            json = arguments.flag("--json")
            let rest = try arguments.positionals()
            guard rest.isEmpty else { throw .usage("unexpected argument \(rest[0])") }
        }

        func run() throws(CLIError) -> ExitCode {
            let key = seed.map { Ed25519.PrivateKey(seed: $0)! } ?? Ed25519.PrivateKey.random()
            let publicPath = out + ".pub"
            for path in [out, publicPath] where InputFile.exists(path) {
                throw .usage("\(path) exists; remove it or choose another --out")
            }
            do {
                try DurableFile.write(
                    Array(OpenSSHKey.privateKeyFile(key, comment: comment).utf8), to: out, mode: 0o600,
                    exclusive: true)
                try DurableFile.write(
                    Array((OpenSSHKey.publicKeyLine(key.publicKey, comment: comment) + "\n").utf8),
                    to: publicPath, mode: 0o644, exclusive: true)
            } catch {
                throw .data(error.description)
            }
            let fingerprint = OpenSSHKey.fingerprint(key.publicKey)
            if json {
                Output.json(
                    JSONObject([
                        ("onymKey", .string(key.publicKey.onymKey)), ("fingerprint", .string(fingerprint)),
                        ("privateKey", .string(out)), ("publicKey", .string(publicPath)),
                    ]))
            } else {
                Output.out(key.publicKey.onymKey)
                Output.err("wrote \(out) and \(publicPath) (\(fingerprint))")
            }
            return .success
        }
    }
}
