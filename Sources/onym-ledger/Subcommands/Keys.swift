import LedgerFormat
import LedgerStore
import LedgerWriter

extension OnymLedger {
    /// `keys rotate`: a signed commit that edits `keys/allowed_signers`.
    struct Keys: Command {
        static let configuration = CommandConfiguration(
            commandName: "keys",
            abstract:
                "List or rotate the commit-signing keys: keys list LEDGER | keys rotate LEDGER --signing-key CURRENT --add/--remove PUBKEY.",
            usage: """
                keys list LEDGER [--json]
                       keys rotate LEDGER --signing-key CURRENT (--add PUBKEY | --remove PUBKEY)… [--at RFC3339]
                """,
            discussion: """
                list prints the keys the tip's keys/allowed_signers allows to sign the next commit (fingerprint and
                key); it reads the repository as it is and does not verify it (use 'verify').
                rotate makes a commit signed by CURRENT, which must be allowed at the current tip; the keys it allows
                take effect from the next commit on (a commit is judged by its parent's allowed signers). PUBKEY is
                a .pub file or 'ssh-ed25519 AAAA…'. Removing the last key is refused.
                """,
            options: [
                OptionHelp(
                    names: "--signing-key KEY",
                    help: "rotate: a currently allowed signer (private key file, or a public key ssh-agent holds)."),
                OptionHelp(names: "--add PUBKEY", help: "rotate: allow this key (repeatable)."),
                OptionHelp(names: "--remove PUBKEY", help: "rotate: stop allowing this key (repeatable)."),
                OptionHelp(names: "--at RFC3339", help: "rotate: the commit time (default: now)."),
                OptionHelp(names: "--json", help: "list: print [{fingerprint, key}]."),
            ])

        enum Action {
            case list(json: Bool)
            case rotate(
                key: any CommitSigner, logKey: (any CommitSigner)?, add: [Ed25519.PublicKey],
                remove: [Ed25519.PublicKey], at: Instant)
        }

        let ledger: String
        let action: Action

        init(parsing arguments: inout Arguments) throws(CLIError) {
            let rest: [String]
            if arguments.flag("--json") {
                rest = try arguments.positionals()
                guard rest.first == "list" else { throw .usage("--json goes with 'keys list'") }
                action = .list(json: true)
            } else if !arguments.contains("--signing-key") {
                rest = try arguments.positionals()
                guard rest.first == "list" else {
                    throw .usage("keys rotate needs --signing-key KEY; or use 'keys list'")
                }
                action = .list(json: false)
            } else {
                let key = try CommonOptions.signingKey(&arguments)
                let logKey = try CommonOptions.logKey(&arguments)
                let at = try CommonOptions.batchTime(&arguments)
                var add: [Ed25519.PublicKey] = []
                for text in try arguments.options("--add") {
                    add.append(try CommonOptions.sshPublicKey(text, option: "--add"))
                }
                var remove: [Ed25519.PublicKey] = []
                for text in try arguments.options("--remove") {
                    remove.append(try CommonOptions.sshPublicKey(text, option: "--remove"))
                }
                rest = try arguments.positionals()
                guard rest.first == "rotate" else { throw .usage("the keys actions are 'list' and 'rotate'") }
                guard !add.isEmpty || !remove.isEmpty else { throw .usage("give --add or --remove") }
                action = .rotate(key: key, logKey: logKey, add: add, remove: remove, at: at)
            }
            guard rest.count == 2 else { throw .usage("keys \(rest.first ?? "list") takes one LEDGER") }
            ledger = rest[1]
        }

        func run() throws(CLIError) -> ExitCode {
            switch action {
            case .list(let json):
                let signers: AllowedSigners
                do {
                    let repository = try Repository.open(ledger)
                    guard let tip = try repository.referenceTarget(LedgerLayout.branch),
                        let bytes = try repository.blob(at: LedgerLayout.allowedSignersPath, inCommit: tip)
                    else {
                        throw CLIError.data("\(ledger): no \(LedgerLayout.allowedSignersPath) at the tip; not a ledger")
                    }
                    signers = try AllowedSigners(text: String(decoding: bytes, as: UTF8.self))
                } catch let error as CLIError {
                    throw error
                } catch {
                    throw .data("\(ledger): cannot read the allowed signers (\(error))")
                }
                if json {
                    Output.json(
                        JSONObject([
                            (
                                "signers",
                                .array(
                                    signers.keys.map {
                                        .object(
                                            JSONObject([
                                                ("fingerprint", .string(OpenSSHKey.fingerprint($0))),
                                                ("key", .string(OpenSSHKey.publicKeyLine($0))),
                                            ]))
                                    })
                            )
                        ]))
                } else {
                    for key in signers.keys {
                        Output.out("\(OpenSSHKey.fingerprint(key))  \(OpenSSHKey.publicKeyLine(key))")
                    }
                }
                return .success
            case .rotate(let key, let logKey, let add, let remove, let at):
                do {
                    if let commit = try Ledger.rotateSigners(
                        path: ledger, signingKey: key, add: add, remove: remove, at: at, logKey: logKey)
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
}
