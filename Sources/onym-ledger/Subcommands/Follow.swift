import Foundation
import LedgerFollow
import LedgerFormat
import LedgerWitness
import LedgerWriter

extension OnymLedger {
    /// `follow`: mirrors the vendor's running backend store (SQLite, onym-wire §5) into the ledger.
    struct Follow: Command {
        static let configuration = CommandConfiguration(
            commandName: "follow",
            abstract: "Mirror the reference backend's SQLite store into the ledger, pass by pass.",
            usage:
                "follow LEDGER --sqlite DB --signing-key KEY --countersign-key SEEDFILE [--key-epochs LIST] "
                + "[--log-key KEY] [--once | --interval DURATION] [--batch-size N] "
                + "[--witness NAME=URL=VKEY… [--witness-timeout DURATION] --trust KEY] [--json]",
            discussion: """
                Reads the backend's store read-only, in one read transaction per pass (a WAL store the backend
                keeps writing is read as one snapshot; nothing is ever written to it), and publishes what the
                ledger lacks as signed batches through append's own checks: mandates from mandates.raw with the
                interface countersignature recomputed (Ed25519 is deterministic: the signature the backend
                returned), manifests from manifest_raw, verdicts from verdicts.raw with their receipts at
                received_at (status as verdict validation derives it then), and write_log rows with their own
                chain hashes, so the ledger's log head equals the store's last entry_hash. Batches follow event
                time (created_at, received_at, recorded_at), at most --batch-size rows each, dated by their
                latest row, so every receipt and entry lies in its batch's time window.
                What was imported is read from the ledger itself (its records by content address, its log size
                and head): a second pass imports only what is new, and a pass killed at any point is resumed by
                the next with nothing lost and nothing twice.
                Refused with exit 65, nothing written: a store whose write-log chain is broken (the sequence
                and the hashes are named), a row the ledger imported that has changed since, an event dated
                before the ledger's tip. recoveries rows are not imported (the store does not keep the grant a
                redemption must name, only its grantRef) and are counted as not imported.
                With --witness, after each pass that published a commit the new checkpoint goes to each witness
                (as 'witness submit' sends it: C2SP tlog-witness, a proof from the size each last cosigned) and
                what they cosign is stored in a later commit; a witness that is slow, down or refuses is named
                on stderr and changes nothing else: the pass is already published, and the next pass submits
                again.
                Exit codes: 0 the pass (or every pass) succeeded, 64 usage, 65 the store or a batch refused,
                70 internal error.
                """,
            options: [
                OptionHelp(names: "--sqlite DB", help: "The backend's SQLite store (opened read-only; required)."),
                OptionHelp(
                    names: "--signing-key KEY",
                    help: "An allowed signer: an ed25519 private key file, or a public key (.pub) ssh-agent holds."),
                OptionHelp(
                    names: "--countersign-key SEEDFILE",
                    help:
                        "A file holding the interface root seed as 64 hex digits (the backend's MODERATION_INTERFACE_SIGNING_SEED)."
                ),
                OptionHelp(
                    names: "--key-epochs LIST",
                    help:
                        "Per-authority key epochs, as MODERATION_INTERFACE_KEY_EPOCHS: onym:component:a=1,… (default: epoch 0, the root)."
                ),
                OptionHelp(names: "--log-key KEY", help: "The log's checkpoint key (default: the signing key)."),
                OptionHelp(names: "--once", help: "One pass, then exit (the default)."),
                OptionHelp(
                    names: "--interval DURATION",
                    help: "Pass again every DURATION (30s, 5m, 1h) until stopped; a refusal ends it (exit 65)."),
                OptionHelp(names: "--batch-size N", help: "At most N store rows per batch (default 1000)."),
                OptionHelp(
                    names: "--witness NAME=URL=VKEY",
                    help: "After each pass that published, submit the checkpoint to this witness (repeatable)."),
                OptionHelp(
                    names: "--witness-timeout DURATION", help: "How long to wait for each witness (default PT30S)."),
                OptionHelp(
                    names: "--trust KEY_OR_FILE", help: "With --witness: the root of trust the log is read under."),
                OptionHelp(
                    names: "--json",
                    help:
                        "Print each pass as {commits, imported, alreadyImported, recoveriesNotImported, logSize, logHead, conductFindings}."
                ),
            ],
            examples: [
                "follow ledger.git --sqlite /var/lib/onym/moderation.db --signing-key vendor-2026 --countersign-key interface.seed",
                "follow ledger.git --sqlite moderation.db --signing-key vendor-2026 --countersign-key interface.seed --interval 1m",
                "follow ledger.git --sqlite moderation.db --signing-key vendor-2026 --countersign-key interface.seed --key-epochs onym:component:safety-board=1 --json",
            ])

        let ledger: String
        let options: Follower.Options
        /// Seconds between passes; nil: one pass.
        let interval: UInt32?
        let json: Bool
        /// What each pass that published submits to the witnesses (`--witness`), or nil.
        let witnessSubmission: WitnessSubmit?

        init(parsing arguments: inout Arguments) throws(CLIError) {
            let signingKey = try CommonOptions.signingKey(&arguments)
            var witnesses: [WitnessSubmission.Endpoint] = []
            for text in try arguments.options("--witness") { witnesses.append(try WitnessSubmit.endpoint(text)) }
            var witnessTimeout = 30.0
            if let text = try arguments.option("--witness-timeout") {
                guard let value = TransparencyOptions.seconds(text), value <= 3_600 else {
                    throw .usage("--witness-timeout is a duration up to an hour, such as PT30S or PT2M")
                }
                witnessTimeout = Double(value)
            }
            let audit = try AuditOptions(parsing: &arguments)
            // The checkpoint a witness is sent is read from the verified ledger: say under which root of trust
            // now, rather than after a pass has published.
            if !witnesses.isEmpty && audit.trust == nil {
                throw .usage("--witness needs --trust KEY_OR_FILE: the root of trust the log is verified under")
            }
            let logKey = try CommonOptions.logKey(&arguments)
            guard let store = try arguments.option("--sqlite") else {
                throw .usage("--sqlite DB is required: the backend's SQLite store")
            }
            guard let seedPath = try arguments.option("--countersign-key") else {
                throw .usage("--countersign-key SEEDFILE is required: the interface root seed, 64 hex digits")
            }
            let seedText = String(decoding: try InputFile.read(seedPath), as: UTF8.self)
            guard let seed = InterfaceCountersigner.seed(fromFileText: seedText) else {
                throw .usage("--countersign-key \(seedPath): the file must hold the 32-byte root seed as 64 hex digits")
            }
            var epochs: [WireString: UInt32] = [:]
            if let text = try arguments.option("--key-epochs") {
                switch InterfaceCountersigner.epochs(text) {
                case .success(let parsed): epochs = parsed
                case .failure(let malformed):
                    throw .usage(
                        "--key-epochs: '\(malformed.item)' is not AUTHORITY=EPOCH (onym:component:safety-board=1)")
                }
            }
            let once = arguments.flag("--once")
            let intervalText = try arguments.option("--interval")
            guard !(once && intervalText != nil) else { throw .usage("--once and --interval exclude each other") }
            if let intervalText {
                guard let seconds = Self.seconds(intervalText) else {
                    throw .usage(
                        "--interval must be a whole number of seconds, minutes or hours: 30s, 5m, 1h; got '\(intervalText)'"
                    )
                }
                interval = seconds
            } else {
                interval = nil
            }
            var batchLimit = 1000
            if let text = try arguments.option("--batch-size") {
                guard let value = Int(text), value >= 1, value <= 100_000 else {
                    throw .usage("--batch-size must be a whole number from 1 to 100000; got '\(text)'")
                }
                batchLimit = value
            }
            json = arguments.flag("--json")
            let rest = try arguments.positionals()
            guard rest.count == 1 else { throw .usage(rest.isEmpty ? "LEDGER is required" : "one LEDGER only") }
            ledger = rest[0]
            witnessSubmission =
                witnesses.isEmpty
                ? nil
                : WitnessSubmit(
                    ledger: ledger, witnesses: witnesses, signingKey: signingKey, timeout: witnessTimeout,
                    audit: audit)
            options = Follower.Options(
                ledger: ledger, store: store, signingKey: signingKey, logKey: logKey,
                countersigner: InterfaceCountersigner(root: seed, epochs: epochs), batchLimit: batchLimit)
        }

        /// `30s`, `5m`, `1h` as seconds.
        static func seconds(_ text: String) -> UInt32? {
            guard let unit = text.last, let value = UInt32(text.dropLast()), value > 0 else { return nil }
            switch unit {
            case "s": return value
            case "m": return value <= UInt32.max / 60 ? value * 60 : nil
            case "h": return value <= UInt32.max / 3600 ? value * 3600 : nil
            default: return nil
            }
        }

        func run() throws(CLIError) -> ExitCode {
            let follower = Follower(options: options)
            while true {
                try onePass(follower)
                guard let interval else { return .success }
                // Each pass closes its appender, which saves the replay state: another writer's next append
                // continues from it instead of rebuilding it.
                sleep(interval)
            }
        }

        private func onePass(_ follower: Follower) throws(CLIError) {
            let terminal = Output.stderrIsTerminal
            let result: Follower.PassResult
            do {
                result = try follower.pass { published, pending in
                    if terminal {
                        FileHandle.standardError.write(Data("\rfollow: \(published)/\(pending) rows published".utf8))
                    }
                }
            } catch {
                if terminal { Output.err("") }
                throw CLIError(error)
            }
            if terminal && !result.commits.isEmpty { Output.err("") }
            if json {
                Output.json(result.json)
            } else {
                let imported = result.imported
                let already = result.alreadyImported
                Output.out(
                    "follow: \(result.commits.count) batch\(result.commits.count == 1 ? "" : "es"): "
                        + "\(imported.mandates) mandates, \(imported.verdicts) verdicts, \(imported.writes) write-log "
                        + "entries new; already in the ledger: \(already.mandates) mandates, \(already.verdicts) "
                        + "verdicts, \(already.writes) entries; log \(result.logSize) entries, head \(result.logHead)")
            }
            if result.recoveriesNotImported > 0 {
                Output.err(
                    "follow: \(result.recoveriesNotImported) recoveries rows not imported: the store keeps no grant "
                        + "bytes to store with them (docs/DECISIONS.md, \"follow: recoveries are not imported\")")
            }
            for finding in result.conductFindings {
                Output.err("conduct finding (the write is logged, as every call must be): \(finding)")
            }
            if let witnessSubmission, !result.commits.isEmpty {
                // The pass is published; a witness's answer (or silence) changes nothing of it.
                do {
                    _ = try witnessSubmission.run()
                } catch {
                    Output.err("follow: witness submission: \(error.message)")
                }
            }
        }
    }
}

extension CLIError {
    /// A refused store or batch: exit 65 (nothing of the refused batch was written); a writer bug: 70.
    init(_ error: FollowError) {
        switch error {
        case .append(let append, let batch):
            let base = CLIError(append)
            self.init(message: "\(batch): \(base.message)", exitCode: base.exitCode)
        case .refusedStore, .unreadableStore: self.init(message: error.description, exitCode: .dataError)
        }
    }
}
