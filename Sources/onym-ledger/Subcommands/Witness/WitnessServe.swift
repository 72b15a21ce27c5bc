import Foundation
import LedgerFormat
import LedgerVerifier
import LedgerWitness

/// `witness serve`: a C2SP tlog-witness HTTP server for the logs given with `--log`.
struct WitnessServe: Sendable {
    let key: any CommitSigner
    let name: String
    let logKeys: [(origin: String, key: NoteKey)]
    let listen: String
    let stateRoot: String
    let rateLimit: WitnessService.RateLimit?
    let timeout: Double

    init(parsing arguments: inout Arguments) throws(CLIError) {
        let identity = try WitnessIdentity(parsing: &arguments)
        key = identity.key
        name = identity.name
        var logKeys: [(origin: String, key: NoteKey)] = []
        for text in try arguments.options("--log") {
            logKeys.append(try Self.logKey(text))
        }
        guard !logKeys.isEmpty else { throw .usage("give at least one --log VKEY (a log this witness cosigns)") }
        self.logKeys = logKeys
        listen = try arguments.option("--listen") ?? "127.0.0.1:7380"
        let limit = try arguments.option("--rate-limit").map { text throws(CLIError) -> Int in
            guard let value = Int(text), value >= 0, value <= 1_000_000 else {
                throw .usage("--rate-limit is a whole number of requests per minute per log (0: no limit)")
            }
            return value
        }
        let requests = limit ?? 60
        rateLimit = requests == 0 ? nil : WitnessService.RateLimit(requests: requests, period: 60)
        timeout = try WitnessSubmit.duration(&arguments, default: 10)
        guard
            let stateRoot = try arguments.option("--state")
                ?? AuditorState.defaultRoot(environment: ProcessInfo.processInfo.environment)
        else { throw .usage("witness serve needs a state folder (--state DIR; no HOME to default to)") }
        self.stateRoot = stateRoot
        let rest = try arguments.positionals()
        guard rest.isEmpty else { throw .usage("witness serve takes no positional arguments (got \(rest[0]))") }
    }

    /// `--log [ORIGIN=]VKEY`: a log verifier key (Ed25519, type 0x01), inline or in a file; the origin it
    /// signs is its name unless given (tlog-checkpoint: the key name SHOULD be the origin).
    static func logKey(_ text: String) throws(CLIError) -> (origin: String, key: NoteKey) {
        // A 33-byte verifier key's base64 has no '=': the last '=' ends an ORIGIN.
        var origin: String?
        var keyText = text
        if NoteKey(text) == nil, let equals = text.lastIndex(of: "="), !FileManager.default.fileExists(atPath: text) {
            origin = String(text[..<equals])
            keyText = String(text[text.index(after: equals)...])
        }
        let key = try TransparencyOptions.noteKey(keyText, option: "--log")
        guard key.type == NoteKey.ed25519 else {
            throw .usage("--log \(text): a log's checkpoint key is an Ed25519 verifier key (type 0x01)")
        }
        let resolved = origin ?? key.name
        guard !resolved.isEmpty, !resolved.contains("\n") else { throw .usage("--log \(text): an empty origin") }
        return (resolved, key)
    }

    /// SIGTERM and SIGINT end the server, whatever mask or disposition it inherited (a parent may spawn it
    /// with them blocked or ignored). Nothing is lost: every answer was preceded by its durable state write.
    static func stopOnSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for stop in [SIGTERM, SIGINT] {
            sigaddset(&set, stop)
            signal(stop, SIG_DFL)
        }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    func run() throws(CLIError) -> ExitCode {
        let service: WitnessService
        do {
            service = try WitnessService(
                name: name, signer: key, logKeys: logKeys, stateRoot: stateRoot, rateLimit: rateLimit)
        } catch {
            throw .usage(error.description)
        }
        var limits = HTTPServer.Limits()
        limits.timeout = timeout
        let server: HTTPServer
        do {
            server = try HTTPServer(
                listen: listen, limits: limits,
                handler: WitnessHTTP.handler(service) { line in Output.err(line) })
        } catch {
            throw .usage(error.description)
        }
        Self.stopOnSignals()
        Output.out("listening on \(server.boundAddress)")
        Output.out("witness key \(service.key)")
        for origin in service.logs.keys.sorted() {
            Output.out("log \(origin): \(service.logs[origin]!.map(\.description).joined(separator: ", "))")
        }
        server.run()
    }
}
