import Foundation
import LedgerFormat
import LedgerStore
import LedgerVerifier
import LedgerWitness
import LedgerWriter

/// `witness submit`: the ledger's newest checkpoint to each witness, and what they cosign into the ledger.
struct WitnessSubmit: Sendable {
    let ledger: String
    let witnesses: [WitnessSubmission.Endpoint]
    let signingKey: (any CommitSigner)?
    let out: String?
    let timeout: Double
    let audit: AuditOptions
    let json: Bool
    /// Whether the result goes to standard output (the verb) or, as a note, to standard error (a submission
    /// `follow --witness` makes after a pass, whose own result is on standard output).
    var resultToStdout = true

    /// A submission another verb makes: its cosignatures stored with `signingKey`.
    init(
        ledger: String, witnesses: [WitnessSubmission.Endpoint], signingKey: any CommitSigner, timeout: Double,
        audit: AuditOptions
    ) {
        self.ledger = ledger
        self.witnesses = witnesses
        self.signingKey = signingKey
        self.out = nil
        self.timeout = timeout
        self.audit = audit
        self.json = false
        self.resultToStdout = false
    }

    init(parsing arguments: inout Arguments) throws(CLIError) {
        var witnesses: [WitnessSubmission.Endpoint] = []
        for text in try arguments.options("--witness") {
            witnesses.append(try Self.endpoint(text))
        }
        guard !witnesses.isEmpty else { throw .usage("give at least one --witness NAME=URL=VKEY") }
        guard Set(witnesses.map(\.key)).count == witnesses.count else {
            throw .usage("a --witness key is given twice")
        }
        self.witnesses = witnesses
        signingKey = try CommonOptions.signer(&arguments, option: "--signing-key")
        out = try arguments.option("--out")
        if out != nil && signingKey != nil {
            throw .usage("--out is for a submission without --signing-key (the cosignatures are stored instead)")
        }
        timeout = try Self.duration(&arguments, default: 30)
        audit = try AuditOptions(parsing: &arguments)
        json = arguments.flag("--json")
        let rest = try arguments.positionals()
        guard rest.count == 1 else { throw .usage("witness submit takes one LEDGER") }
        ledger = rest[0]
    }

    /// `NAME=URL=VKEY`: NAME is the key's name; the URL is http or https (the submission prefix); VKEY a
    /// cosignature/v1 verifier key, inline or in a file. A URL may hold '=', a name and a key do not need one.
    static func endpoint(_ text: String) throws(CLIError) -> WitnessSubmission.Endpoint {
        guard let first = text.firstIndex(of: "="), let last = text.lastIndex(of: "="), first < last else {
            throw .usage("--witness \(text): give NAME=URL=VKEY")
        }
        let name = String(text[..<first])
        let urlText = String(text[text.index(after: first)..<last])
        let key = try TransparencyOptions.noteKey(String(text[text.index(after: last)...]), option: "--witness")
        guard key.type == NoteKey.cosignatureV1 else {
            throw .usage("--witness \(name): the key is a cosignature/v1 verifier key (type 0x04)")
        }
        guard key.name.hasSameBytes(as: name) else {
            throw .usage("--witness \(name): the verifier key is named \(key.name); NAME is the key's name")
        }
        guard let url = URL(string: urlText), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw .usage("--witness \(name): \(urlText) is not an http:// or https:// URL")
        }
        return WitnessSubmission.Endpoint(key: key, url: url)
    }

    /// `--timeout DURATION` (`PT30S`, `PT2M`…) in seconds.
    static func duration(_ arguments: inout Arguments, default seconds: Double) throws(CLIError) -> Double {
        guard let text = try arguments.option("--timeout") else { return seconds }
        guard let value = TransparencyOptions.seconds(text), value <= 3_600 else {
            throw .usage("--timeout is a duration up to an hour, such as PT30S or PT2M")
        }
        return Double(value)
    }

    func run() throws(CLIError) -> ExitCode {
        let log = try TransparencyOptions.log(of: ledger, audit: audit)
        guard let tip = log.tip, let head = try? SignedNote(parsing: tip.note) else {
            throw .data("\(ledger): the ledger has no checkpoint to submit")
        }
        let origin = log.key.name
        // Each witness in parallel: a slow one delays the others by nothing.
        let outcomes = ParallelResults(count: witnesses.count)
        DispatchQueue.concurrentPerform(iterations: witnesses.count) { index in
            let witness = witnesses[index]
            outcomes.set(
                index,
                WitnessSubmission.submit(
                    log, stored: log.storedCosignatures[witness.key.keyID], to: witness, timeout: timeout))
        }
        var cosigned: [SignedNote] = []
        var reports: [JSONValue] = []
        for (witness, outcome) in zip(witnesses, outcomes.values) {
            var report = JSONObject([("name", .string(witness.key.name)), ("key", .string(witness.key.description))])
            switch outcome {
            case .success(let result):
                cosigned.append(result.note)
                report.set("cosigned", .bool(true))
                report.set("oldSize", .integer(Int64(result.oldSize)))
                report.set("retried", .bool(result.retried))
                if !json {
                    Output.err(
                        "\(witness.key.name): cosigned size \(log.size) (old \(result.oldSize)"
                            + (result.retried ? ", after a 409" : "") + ")")
                }
            case .failure(let failure):
                report.set("cosigned", .bool(false))
                report.set("error", .string(failure.description))
                if !json { Output.err("\(witness.key.name): not cosigned: \(failure.description)") }
            }
            reports.append(.object(report))
        }
        var commit: String?
        if let signingKey, !cosigned.isEmpty {
            let item = BatchItem(source: "witness submit", content: .cosignatures(cosigned))
            do {
                let now = Instant(seconds: Int64(Date().timeIntervalSince1970))
                let appender = try Appender.open(ledger)
                defer { appender.close() }
                let result = try appender.append(items: [item], signingKey: signingKey, at: now)
                commit = result.commit?.description
            } catch {
                throw CLIError(error)
            }
        } else if !cosigned.isEmpty {
            // As `cosign` prints it: the log's signature, then each witness's line.
            let note = SignedNote(text: head.text, signatures: head.signatures + cosigned.map { $0.signatures[0] })
                .formatted
            if let out {
                do {
                    try Data(note.utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
                } catch {
                    throw .data("\(out): cannot write (\(error.localizedDescription))")
                }
            } else if !json {
                Output.out(note)
            }
        }
        if json {
            var object = JSONObject([
                ("origin", .string(origin)), ("size", .integer(Int64(log.size))), ("witnesses", .array(reports)),
            ])
            object.set("commit", commit.map { .string($0) } ?? .null)
            Output.json(object)
        } else if let commit {
            let line = "stored \(cosigned.count) cosignature\(cosigned.count == 1 ? "" : "s") in \(commit.prefix(12))"
            if resultToStdout { Output.out(line) } else { Output.err(line) }
        }
        return cosigned.count == witnesses.count ? .success : .rejected
    }
}

/// One result slot per witness, filled from `concurrentPerform`.
private final class ParallelResults: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<WitnessSubmission.Cosigned, WitnessSubmission.Failure>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Result<WitnessSubmission.Cosigned, WitnessSubmission.Failure>) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    var values: [Result<WitnessSubmission.Cosigned, WitnessSubmission.Failure>] { slots.map { $0! } }
}
