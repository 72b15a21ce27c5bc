import LedgerFormat
import LedgerStore
import LedgerVerifier
import LedgerWriter

extension OnymLedger {
    /// `keys rotate`: a signed commit that edits `keys/allowed_signers`.
    struct Keys: Command {
        static let configuration = CommandConfiguration(
            commandName: "keys",
            abstract:
                "List or rotate the commit-signing keys and the log key: keys list | keys rotate | keys rotate-log.",
            usage: """
                keys list LEDGER [--json]
                       keys rotate LEDGER --signing-key CURRENT (--add PUBKEY | --remove PUBKEY)… [--log-key LOGKEY] [--at RFC3339]
                       keys rotate-log LEDGER --signing-key CURRENT --log-key NEW [--origin ORIGIN] [--at RFC3339]
                """,
            discussion: """
                list prints the keys the tip's keys/allowed_signers allows to sign the next commit (fingerprint and
                key); it reads the repository as it is and does not verify it (use 'verify').
                rotate makes a commit signed by CURRENT, which must be allowed at the current tip; the keys it allows
                take effect from the next commit on (a commit is judged by its parent's allowed signers). PUBKEY is
                a .pub file or 'ssh-ed25519 AAAA…'. Removing the last key is refused.
                rotate-log hands the transparency log to a new key under a new origin (docs/FORMAT.md, "Log
                handover"): one commit signed by CURRENT replaces the descriptor's log and carries the new log's
                first checkpoint — the old log's last size and root, signed by NEW. The old log key is not needed,
                so a leaked or lost log key can be retired. Later appends sign checkpoints with --log-key NEW;
                witnesses see a new origin (default: the old origin, '/', the new key's ID). list also prints the
                log key in force and every handover in the history.
                Examples:
                  onym-ledger keys rotate ledger.git --signing-key old-key --add new-key.pub --log-key log-key
                  onym-ledger keys rotate-log ledger.git --signing-key new-key --log-key log-key-2
                  onym-ledger keys list ledger.git --json
                """,
            options: [
                OptionHelp(
                    names: "--signing-key KEY",
                    help: "rotate: a currently allowed signer (private key file, or a public key ssh-agent holds)."),
                OptionHelp(names: "--add PUBKEY", help: "rotate: allow this key (repeatable)."),
                OptionHelp(names: "--remove PUBKEY", help: "rotate: stop allowing this key (repeatable)."),
                OptionHelp(
                    names: "--log-key KEY",
                    help: "rotate: the log key in force (signs the checkpoint); rotate-log: the NEW log key."),
                OptionHelp(
                    names: "--origin ORIGIN", help: "rotate-log: the new log's origin (default: old origin/key ID)."),
                OptionHelp(names: "--at RFC3339", help: "rotate: the commit time (default: now)."),
                OptionHelp(names: "--json", help: "list: print {signers: [{fingerprint, key}], log, logHandovers}."),
            ])

        enum Action {
            case list(json: Bool)
            case rotate(
                key: any CommitSigner, logKey: (any CommitSigner)?, add: [Ed25519.PublicKey],
                remove: [Ed25519.PublicKey], at: Instant)
            case rotateLog(key: any CommitSigner, newLogKey: any CommitSigner, origin: String?, at: Instant)
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
                let origin = try arguments.option("--origin")
                var add: [Ed25519.PublicKey] = []
                for text in try arguments.options("--add") {
                    add.append(try CommonOptions.sshPublicKey(text, option: "--add"))
                }
                var remove: [Ed25519.PublicKey] = []
                for text in try arguments.options("--remove") {
                    remove.append(try CommonOptions.sshPublicKey(text, option: "--remove"))
                }
                rest = try arguments.positionals()
                if rest.first == "rotate-log" {
                    guard let logKey else { throw .usage("keys rotate-log needs --log-key NEW (the new log key)") }
                    guard add.isEmpty && remove.isEmpty else {
                        throw .usage("--add and --remove go with 'keys rotate'")
                    }
                    action = .rotateLog(key: key, newLogKey: logKey, origin: origin, at: at)
                } else {
                    guard rest.first == "rotate" else {
                        throw .usage("the keys actions are 'list', 'rotate' and 'rotate-log'")
                    }
                    guard origin == nil else { throw .usage("--origin goes with 'keys rotate-log'") }
                    guard !add.isEmpty || !remove.isEmpty else { throw .usage("give --add or --remove") }
                    action = .rotate(key: key, logKey: logKey, add: add, remove: remove, at: at)
                }
            }
            guard rest.count == 2 else { throw .usage("keys \(rest.first ?? "list") takes one LEDGER") }
            ledger = rest[1]
        }

        func run() throws(CLIError) -> ExitCode {
            switch action {
            case .list(let json):
                let signers: AllowedSigners
                let logs: [(commit: ObjectID, key: NoteKey?)]
                do {
                    (signers, logs) = try LedgerKeys.current(ledger)
                } catch .notALedger {
                    throw .data("\(ledger): \(LedgerKeys.ReadError.notALedger)")
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
                            ),
                            ("log", logs.last?.key.map { .string($0.description) } ?? .null),
                            (
                                "logKeys",
                                .array(
                                    logs.map {
                                        .object(
                                            JSONObject([
                                                ("since", .string($0.commit.hex)),
                                                ("key", $0.key.map { .string($0.description) } ?? .null),
                                            ]))
                                    })
                            ),
                        ]))
                } else {
                    for key in signers.keys {
                        Output.out("\(OpenSSHKey.fingerprint(key))  \(OpenSSHKey.publicKeyLine(key))")
                    }
                    for (index, log) in logs.enumerated() {
                        let role = index == logs.count - 1 ? "log key in force" : "log key retired"
                        Output.out("\(role) since \(log.commit.short): \(log.key?.description ?? "none declared")")
                    }
                }
                return .success
            case .rotateLog(let key, let newLogKey, let origin, let at):
                do {
                    let appender = try Appender.open(ledger)
                    defer { appender.close() }
                    let (commit, log) = try appender.rotateLog(
                        signingKey: key, newLogKey: newLogKey, origin: origin, at: at)
                    Output.out("handed the log over at \(commit.short): checkpoints are now signed by \(log)")
                } catch {
                    throw CLIError(error)
                }
                return .success
            case .rotate(let key, let logKey, let add, let remove, let at):
                do {
                    let appender = try Appender.open(ledger)
                    defer { appender.close() }
                    if let commit = try appender.rotateSigners(
                        signingKey: key, add: add, remove: remove, at: at, logKey: logKey)
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
