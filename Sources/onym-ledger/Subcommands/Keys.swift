import LedgerFormat
import LedgerWriter

extension OnymLedger {
    /// `keys rotate`: a signed commit that edits `keys/allowed_signers`.
    struct Keys: Command {
        static let configuration = CommandConfiguration(
            commandName: "keys",
            abstract: "Rotate the commit-signing keys: keys rotate LEDGER --signing-key CURRENT --add/--remove PUBKEY.",
            usage: "keys rotate LEDGER --signing-key CURRENT (--add PUBKEY | --remove PUBKEY)… [--at RFC3339]",
            discussion: """
                The commit is signed by CURRENT, which must be allowed at the current tip; the keys it allows take
                effect from the next commit on (a commit is judged by its parent's allowed signers). PUBKEY is a
                .pub file or 'ssh-ed25519 AAAA…'. Removing the last key is refused.
                """,
            options: [
                OptionHelp(names: "--signing-key KEY", help: "A currently allowed signer's private key (required)."),
                OptionHelp(names: "--add PUBKEY", help: "Allow this key (repeatable)."),
                OptionHelp(names: "--remove PUBKEY", help: "Stop allowing this key (repeatable)."),
                OptionHelp(names: "--at RFC3339", help: "The commit time (default: now)."),
            ])

        let ledger: String
        let key: Ed25519.PrivateKey
        let add: [Ed25519.PublicKey]
        let remove: [Ed25519.PublicKey]
        let at: Instant

        init(parsing arguments: inout Arguments) throws(CLIError) {
            key = try CommonOptions.signingKey(&arguments)
            at = try CommonOptions.batchTime(&arguments)
            var add: [Ed25519.PublicKey] = []
            for text in try arguments.options("--add") {
                add.append(try CommonOptions.sshPublicKey(text, option: "--add"))
            }
            var remove: [Ed25519.PublicKey] = []
            for text in try arguments.options("--remove") {
                remove.append(try CommonOptions.sshPublicKey(text, option: "--remove"))
            }
            self.add = add
            self.remove = remove
            let rest = try arguments.positionals()
            guard rest.first == "rotate" else { throw .usage("the only keys action is 'rotate'") }
            guard rest.count == 2 else { throw .usage("keys rotate takes one LEDGER") }
            ledger = rest[1]
            guard !add.isEmpty || !remove.isEmpty else { throw .usage("give --add or --remove") }
        }

        func run() throws(CLIError) -> ExitCode {
            do {
                if let commit = try Ledger.rotateSigners(
                    path: ledger, signingKey: key, add: add, remove: remove, at: at)
                {
                    Output.out("rotated signers at \(commit.short)")
                } else {
                    Output.out("allowed signers unchanged (no commit)")
                }
            } catch {
                throw CLIError(error)
            }
            return .success
        }
    }
}
