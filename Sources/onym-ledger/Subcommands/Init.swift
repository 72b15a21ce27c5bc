import LedgerFormat
import LedgerStore
import LedgerWriter

extension OnymLedger {
    /// `init`: a new ledger repository with its descriptor, allowed signers and a first signed commit.
    struct Init: Command {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Create a ledger: a bare git repository with its descriptor and a first signed commit.",
            usage: """
                init LEDGER --interface COMPONENT_ID --signing-key KEY (--interface-key KEY… | --no-mandates) \
                [--at RFC3339] [--ledger-id ID] [--profile FILE] [--team-id ID --app BUNDLE_ID…] [--dry-run]
                """,
            discussion: """
                The repository is bare: commits are made through the object database, so a work tree would only
                go stale. Clone it or 'git --git-dir=LEDGER log' to browse with stock git.
                --interface-key takes the countersigning root key (onym:key:…) or a rotated per-authority key
                as AUTHORITY@EPOCH=onym:key:… (reference §2.2: epoch n ≥ 1 of one authority).
                The descriptor never changes after init, so init refuses one that every later append would
                trip over: a ledger without a countersigning key can hold no mandate (give --interface-key, or
                --no-mandates to say on purpose that it never will), an Apple team id is 10 letters or digits
                (ONYMTEAM01), and each --app is a bundle identifier (app.onym.chat). --dry-run prints the
                descriptor init would write and creates nothing.
                The signing key's public half becomes the only allowed commit signer.
                """,
            options: [
                OptionHelp(names: "--interface ID", help: "The interface's onym:component: id (required)."),
                OptionHelp(
                    names: "--signing-key KEY",
                    help:
                        "The key that signs commits: an ed25519 private key file, or a public key (.pub) ssh-agent holds."
                ),
                OptionHelp(names: "--at RFC3339", help: "The commit time (default: now)."),
                OptionHelp(names: "--ledger-id ID", help: "The ledger's id (default: the interface id)."),
                OptionHelp(names: "--profile FILE", help: "An enforcement-profile object to store and pin."),
                OptionHelp(names: "--team-id ID", help: "The Apple developer team whose DeviceCheck bits this is."),
                OptionHelp(
                    names: "--app BUNDLE_ID", help: "An app sharing the bit contract (repeatable; needs --team-id)."),
                OptionHelp(names: "--interface-key KEY", help: "A mandate countersigning key (repeatable)."),
                OptionHelp(names: "--no-mandates", help: "This ledger will never hold mandates (no --interface-key)."),
                OptionHelp(
                    names: "--origin ORIGIN",
                    help: "The transparency log's origin, the name its checkpoints carry (default: the ledger id)."),
                OptionHelp(
                    names: "--log-key KEY",
                    help:
                        "The key that signs the log's checkpoints, declared in the descriptor (default: the signing key)."
                ),
                OptionHelp(names: "--dry-run", help: "Print the descriptor that would be written; create nothing."),
                OptionHelp(names: "--json", help: "Print {ledger, commit} as JSON."),
            ])

        let path: String
        let descriptor: LedgerDescriptor
        let key: any CommitSigner
        let logKey: (any CommitSigner)?
        let origin: String?
        let at: Instant
        let profile: EnforcementProfile?
        let json: Bool
        let dryRun: Bool

        init(parsing arguments: inout Arguments) throws(CLIError) {
            guard let interface = try arguments.option("--interface") else { throw .usage("--interface is required") }
            guard interface.hasBytePrefix("onym:component:"), interface.utf8.count > "onym:component:".utf8.count else {
                throw .usage("--interface must be an onym:component:<id>")
            }
            key = try CommonOptions.signingKey(&arguments)
            logKey = try CommonOptions.logKey(&arguments)
            origin = try arguments.option("--origin")
            if let origin, !LedgerDescriptor.isUsableOrigin(origin) {
                throw .usage(
                    "--origin is the log's name: no spaces or '+', not starting with SSHSIG, such as "
                        + "ledger.example.com/onym; got '\(origin)'")
            }
            at = try CommonOptions.batchTime(&arguments)
            let ledgerId = try arguments.option("--ledger-id") ?? interface
            guard LedgerDescriptor.isLedgerId(ledgerId) else {
                throw .usage(
                    "--ledger-id must be 1–128 ASCII letters, digits and . _ : / -, starting with a letter or digit; "
                        + "got '\(ledgerId)'")
            }
            let teamId = try arguments.option("--team-id")
            let apps = try arguments.options("--app")
            let account: LedgerDescriptor.AppleAccount?
            do {
                account = try .checked(teamId: teamId, apps: apps)
            } catch {
                switch error {
                case .unpaired:
                    throw .usage("--team-id and --app go together: the account scope is a team and every app in it")
                case .teamId(let teamId):
                    throw .usage(
                        "--team-id must be an Apple team id: 10 capital letters or digits, such as ONYMTEAM01; got '\(teamId)'"
                    )
                case .app(let app):
                    throw .usage("--app must be a bundle identifier such as app.onym.chat; got '\(app)'")
                }
            }
            var root: Ed25519.PublicKey?
            var authorityKeys: [WireString: [LedgerDescriptor.EpochKey]] = [:]
            for text in try arguments.options("--interface-key") {
                if text.hasPrefix(OnymKey.prefix) {
                    guard root == nil else { throw .usage("only one root --interface-key (onym:key:…)") }
                    root = try Self.key(text)
                    continue
                }
                // Split on bytes: a combining mark after `@` or `=` does not hide it.
                let scalars = text.unicodeScalars
                guard let equals = scalars.firstIndex(of: "="), let at = scalars[..<equals].lastIndex(of: "@"),
                    let epoch = Int64(String(Substring(scalars[scalars.index(after: at)..<equals]))), epoch >= 1
                else {
                    throw .usage("--interface-key \(text): expected onym:key:… or AUTHORITY@EPOCH=onym:key:…")
                }
                let authority = WireString(String(Substring(scalars[..<at])))
                authorityKeys[authority, default: []].append(
                    .init(epoch: epoch, key: try Self.key(String(Substring(scalars[scalars.index(after: equals)...])))))
            }
            for (authority, epochs) in authorityKeys {
                authorityKeys[authority] = epochs.sorted { $0.epoch < $1.epoch }
            }
            if let profilePath = try arguments.option("--profile") {
                do {
                    profile = try EnforcementProfile(json: try CanonicalJSON.parse(try InputFile.read(profilePath)))
                } catch let error as CLIError {
                    throw error
                } catch {
                    throw .data("\(profilePath): \(error)")
                }
            } else {
                profile = nil
            }
            let noMandates = arguments.flag("--no-mandates")
            if root == nil && authorityKeys.isEmpty && !noMandates {
                throw .usage(
                    "--interface-key is required: every mandate is countersigned with it and the descriptor never "
                        + "changes; give the countersigning root (onym:key:…), or --no-mandates if this ledger will never hold mandates"
                )
            }
            if noMandates && (root != nil || !authorityKeys.isEmpty) {
                throw .usage("--no-mandates and --interface-key contradict each other")
            }
            json = arguments.flag("--json")
            dryRun = arguments.flag("--dry-run")
            let rest = try arguments.positionals()
            guard rest.count == 1 else { throw .usage(rest.isEmpty ? "LEDGER is required" : "one LEDGER path") }
            path = rest[0]
            descriptor = LedgerDescriptor(
                ledgerId: ledgerId, interface: WireString(interface),
                appleAccount: account,
                interfaceRootKey: root, authorityKeys: authorityKeys)
            do {
                _ = try LedgerDescriptor(json: descriptor.json)
            } catch {
                throw .usage("invalid descriptor: \(error)")
            }
        }

        private static func key(_ text: String) throws(CLIError) -> Ed25519.PublicKey {
            do {
                return try OnymKey.parse(text, field: "--interface-key")
            } catch {
                throw .usage("--interface-key \(text): \(error.reason)")
            }
        }

        func run() throws(CLIError) -> ExitCode {
            if dryRun {
                var written = descriptor
                written.profile = profile?.ref  // as init pins it
                Output.out(String(decoding: CanonicalJSON.encode(written.json), as: UTF8.self))
                return .success
            }
            let commit: ObjectID
            do {
                commit = try Ledger.initialize(
                    path: path, descriptor: descriptor, signingKey: key, at: at, profile: profile, logKey: logKey,
                    origin: origin)
            } catch {
                throw CLIError(error)
            }
            if json {
                Output.json(JSONObject([("ledger", .string(path)), ("commit", .string(commit.hex))]))
            } else {
                Output.out("initialized \(path) at \(commit.short) (signer \(OpenSSHKey.fingerprint(key.publicKey)))")
            }
            if logKey == nil {
                // A choice the user makes, not a silent default: say which key signs the log.
                Output.err(
                    "note: the signing key also signs the transparency log's checkpoints (no --log-key); a log key "
                        + "of its own can be retired apart from the commit keys ('keys rotate-log')")
            }
            return .success
        }
    }
}
