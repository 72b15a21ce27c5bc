import Foundation
import LedgerFormat
import LedgerStore
import LedgerVerifier

extension OnymLedger {
    /// `publish`: the ledger's transparency log as C2SP tlog-tiles in a folder.
    struct Publish: Command {
        static let configuration = CommandConfiguration(
            commandName: "publish",
            abstract: "Write the verified ledger's transparency log as C2SP tiles into a folder a static host serves.",
            usage: "publish LEDGER DIR [--trust KEY] [--state DIR] [--json]",
            discussion: """
                The ledger is verified first (incrementally); only authentic history is published. DIR receives
                checkpoint, tile/<L>/<N>[.p/<W>] and tile/entries/<N>[.p/<W>] (height 8; an entry is the leaf
                statement {"path","sha256"} of docs/FORMAT.md), written incrementally: tiles already there are
                kept, the checkpoint is replaced last. Any tlog client reads the folder with the log's verifier
                key (the descriptor's "log").
                Refused with exit 64, nothing written: a DIR whose checkpoint or tiles this log does not extend
                (another log, or another history: a split view), and a DIR holding a symbolic link, FIFO or other
                special file where publish reads or writes (DIR may be a web root others write to: nothing is
                read or written through a link inside it, nothing waits on a FIFO; DIR itself may be a link).
                """,
            options: AuditOptions.help + [
                OptionHelp(names: "--json", help: "Print {previousSize, size, filesWritten, origin, key}.")
            ])

        let ledger: String
        let folder: String
        let audit: AuditOptions
        let json: Bool

        init(parsing arguments: inout Arguments) throws(CLIError) {
            audit = try AuditOptions(parsing: &arguments)
            json = arguments.flag("--json")
            let rest = try arguments.positionals()
            guard rest.count == 2 else { throw .usage("publish takes LEDGER and DIR") }
            ledger = rest[0]
            folder = rest[1]
        }

        func run() throws(CLIError) -> ExitCode {
            let log = try TransparencyOptions.log(of: ledger, audit: audit)
            let publication: LogPublisher.Publication
            do {
                publication = try LogPublisher.publish(log, to: folder)
            } catch {
                throw CLIError(message: error.description, exitCode: error.isRefusedFolder ? .usage : .dataError)
            }
            if json {
                Output.json(
                    JSONObject([
                        ("previousSize", .integer(Int64(publication.previousSize))),
                        ("size", .integer(Int64(publication.size))),
                        ("filesWritten", .integer(Int64(publication.filesWritten))),
                        ("origin", .string(log.key.name)), ("key", .string(log.key.description)),
                    ]))
            } else {
                Output.out(
                    "published \(log.key.name) at size \(publication.size) (from \(publication.previousSize)): "
                        + "\(publication.filesWritten) files written to \(folder); log key \(log.key)")
            }
            return .success
        }
    }
}

/// `--witness VKEY…`, `--quorum K`, `--max-age DURATION`: the witnesses whose cosignatures `verify` and
/// `check-proof` require.
struct WitnessOptions {
    let keys: [NoteKey]
    let quorum: Int
    let maxAge: Int64?

    init(parsing arguments: inout Arguments) throws(CLIError) {
        var keys: [NoteKey] = []
        for text in try arguments.options("--witness") {
            let key = try TransparencyOptions.noteKey(text, option: "--witness")
            guard key.type == NoteKey.cosignatureV1 else {
                throw .usage(
                    "--witness \(text): a witness key is a cosignature/v1 key (type 0x04), as 'cosign' prints it")
            }
            keys.append(key)
        }
        self.keys = keys
        // A witness is its key: the same key given twice, or under two names, is one witness.
        let witnesses = Cosignature.witnesses(keys).count
        if let text = try arguments.option("--quorum") {
            guard let value = Int(text), value >= 1, value <= witnesses else {
                throw .usage(
                    "--quorum is a number from 1 to the number of witnesses the --witness keys name (\(witnesses): "
                        + "a witness is its key, so one key given twice or under two names counts once)")
            }
            quorum = value
        } else {
            quorum = witnesses
        }
        if let text = try arguments.option("--max-age") {
            guard let seconds = TransparencyOptions.seconds(text) else {
                throw .usage("--max-age is a duration P<n>D, PT<n>H, PT<n>M or PT<n>S, such as P1D; got '\(text)'")
            }
            maxAge = seconds
        } else {
            maxAge = nil
        }
    }
}

/// The verified transparency log a `publish` or `prove` works from.
enum TransparencyOptions {
    static func log(of ledger: String, audit: AuditOptions) throws(CLIError) -> LedgerLogView {
        let audited = try AuditedLedger.open(ledger, audit: audit)
        if let note = audited.conductNote { Output.err(note) }
        let view: LedgerLogView?
        do {
            view = try audited.history.transparencyLog()
        } catch {
            throw .data("\(ledger): \(error)")
        }
        guard let view else { throw .data("\(ledger): the descriptor declares no transparency log (log)") }
        return view
    }

    /// A duration of one unit — `P<n>D`, `PT<n>H`, `PT<n>M`, `PT<n>S` — in seconds.
    static func seconds(_ text: String) -> Int64? {
        let units: [(String, String, Int64)] = [
            ("P", "D", 86_400), ("PT", "H", 3_600), ("PT", "M", 60), ("PT", "S", 1),
        ]
        for (prefix, suffix, scale) in units where text.hasPrefix(prefix) && text.hasSuffix(suffix) {
            let digits = text.dropFirst(prefix.count).dropLast(suffix.count)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int64(digits), value > 0,
                value < Int64.max / scale
            else { continue }
            return value * scale
        }
        return nil
    }

    /// A verifier key given inline (`origin+hex8+base64`) or as a file holding one.
    static func noteKey(_ text: String, option: String) throws(CLIError) -> NoteKey {
        var line = text
        if NoteKey(text) == nil, let data = FileManager.default.contents(atPath: text) {
            line = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard let key = NoteKey(line) else {
            throw .usage(
                "\(option) \(text): not a C2SP verifier key <name>+<key ID>+<base64 key>, nor a file holding one")
        }
        return key
    }
}
