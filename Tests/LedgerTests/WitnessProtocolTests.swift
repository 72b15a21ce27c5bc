import Foundation
import Testing

@testable import LedgerFormat

/// C2SP tlog-witness over HTTP (docs/WITNESS.md): `witness serve` and `witness submit` against each other
/// and against an independent Python witness and client written from the spec text (Tests/Interop), on
/// 127.0.0.1 with ports the kernel chooses.
@Suite("Transparency: the tlog-witness protocol")
struct WitnessProtocolTests {
    static let interop = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop")
    static let packageRoot = interop.deletingLastPathComponent().deletingLastPathComponent()
    static let pythonClient = interop.appendingPathComponent("witness_client.py").path
    static let pythonServer = interop.appendingPathComponent("witness_server.py").path

    /// A witness server running as a subprocess: what it printed first (its address and key), stopped by
    /// SIGTERM when the test is done with it.
    final class ServedWitness {
        let process = Process()
        let url: String
        let vkey: String
        let stderrPath: String

        /// Starts `executable arguments` and reads `listening on ADDR` and `witness key VKEY` from its stdout.
        init(_ executable: String, _ arguments: [String], stderr: String) throws {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            let out = Pipe()
            process.standardOutput = out
            FileManager.default.createFile(atPath: stderr, contents: nil)
            stderrPath = stderr
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderr))
            try process.run()
            var text = ""
            while !text.contains("\nwitness key ") || !text.hasSuffix("\n") {
                let chunk = out.fileHandleForReading.availableData
                guard !chunk.isEmpty else { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            let lines = text.split(separator: "\n")
            guard let listening = lines.first(where: { $0.hasPrefix("listening on ") }),
                let key = lines.first(where: { $0.hasPrefix("witness key ") })
            else {
                process.terminate()
                throw WitnessStartFailure(output: text)
            }
            url = "http://" + listening.dropFirst("listening on ".count)
            vkey = String(key.dropFirst("witness key ".count))
        }

        /// `NAME=URL=VKEY` for `witness submit --witness`.
        var submitArgument: String { "\(vkey.prefix { $0 != "+" })=\(url)=\(vkey)" }

        var log: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }

        deinit { if process.isRunning { stop() } }
    }

    struct WitnessStartFailure: Error { let output: String }

    /// `witness serve` for `logs`, with a fresh key from `seed` unless `key` names one.
    static func serve(
        _ scratch: borrowing ScratchDirectory, name: String, seed: String, logs: [String], state: String? = nil,
        extra: [String] = ["--rate-limit", "0"]
    ) throws -> ServedWitness {
        let key = scratch.path(name + ".key")
        if !FileManager.default.fileExists(atPath: key) {
            #expect(CLI.run(["keygen", "--out", key, "--seed", String(repeating: seed, count: 32)]).status == 0)
        }
        return try ServedWitness(
            CLI.binary,
            [
                "witness", "serve", "--key", key, "--name", name, "--listen", "127.0.0.1:0", "--state",
                state ?? scratch.path(name + "-state"),
            ] + logs.flatMap { ["--log", $0] } + extra,
            stderr: scratch.path(name + "-\(UUID().uuidString).log"))
    }

    /// The independent Python witness (Tests/Interop/witness_server.py).
    static func servePython(_ scratch: borrowing ScratchDirectory, name: String, seed: String, log: String) throws
        -> ServedWitness
    {
        try ServedWitness(
            "/usr/bin/env",
            ["python3", pythonServer, "--seed", String(repeating: seed, count: 32), "--name", name, "--log", log],
            stderr: scratch.path(name + ".log"))
    }

    static func python(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        runProcess("python3", [pythonClient] + arguments)
    }

    /// The log key the scenario's descriptor declares.
    static func logKey(_ scenario: LedgerScenario) throws -> String {
        let descriptor = try #require(scenario.show("ledger.json"))
        return try #require(try CanonicalJSON.parse(Array(descriptor.utf8))["log"]?.stringValue)
    }

    /// Now, as an RFC 3339 time: the witnesses cosign with their clocks, so the batches that follow a
    /// stored cosignature are dated by the same clock (the commit order needs no more than that).
    static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date())
    }

    static func submit(
        _ scenario: LedgerScenario, _ witnesses: [ServedWitness], store: Bool = true, extra: [String] = []
    ) throws -> (status: Int32, report: [String: Any], stderr: String) {
        let result = CLI.run(
            ["witness", "submit", scenario.ledger, "--trust", WitnessTests.trust(scenario), "--json"]
                + witnesses.flatMap { ["--witness", $0.submitArgument] }
                + (store ? ["--signing-key", scenario.signer] : []) + extra)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            "\(result.stdout) \(result.stderr)")
        return (result.status, report, result.stderr)
    }

    static func outcomes(_ report: [String: Any]) -> [[String: Any]] {
        report["witnesses"] as? [[String: Any]] ?? []
    }

    static func verifyQuorum(_ scenario: LedgerScenario, _ witnesses: [ServedWitness]) -> (Int32, String) {
        let result = CLI.run(
            ["verify", scenario.ledger, "--trust", WitnessTests.trust(scenario), "--quorum", "\(witnesses.count)"]
                + witnesses.flatMap { ["--witness", $0.vkey] })
        return (result.status, result.stdout + result.stderr)
    }

    /// `witness submit` to our witness and the Python one: both cosign (old 0), the cosignatures are stored
    /// in a commit, `verify --quorum 2` accepts; after a batch each submits from the size it cosigned; after
    /// a submission not stored, each witness is ahead of the ledger's memory, answers 409 with its size, and
    /// the client retries once from there.
    @Test func submitToOurWitnessAndThePythonOneThenVerifyAQuorumOfTwo() async throws {
        await failingIfHung {
            let scenario = WitnessTests.ledger()
            let logKey = try Self.logKey(scenario)
            let ours = try Self.serve(scenario.scratch, name: "ours.example", seed: "41", logs: [logKey])
            let theirs = try Self.servePython(scenario.scratch, name: "python.example", seed: "42", log: logKey)
            let witnesses = [ours, theirs]
            #expect(Self.verifyQuorum(scenario, witnesses).0 == 3)

            let first = try Self.submit(scenario, witnesses)
            #expect(first.status == 0, "\(first.report) \(first.stderr)")
            #expect(first.report["commit"] is String)
            for outcome in Self.outcomes(first.report) {
                #expect(outcome["cosigned"] as? Bool == true, "\(outcome)")
                #expect(outcome["oldSize"] as? Int == 0)
            }
            let quorum = Self.verifyQuorum(scenario, witnesses)
            #expect(quorum.0 == 0, "\(quorum.1)")

            // A later batch: each witness is sent a proof from the size it cosigned (no 409).
            let cosignedSize = try #require(first.report["size"] as? Int)
            scenario.append([scenario.file(scenario.mandate(binding: "enrollment:device-2"))], at: Self.now())
            let second = try Self.submit(scenario, witnesses)
            #expect(second.status == 0, "\(second.report) \(second.stderr)")
            for outcome in Self.outcomes(second.report) {
                #expect(outcome["oldSize"] as? Int == cosignedSize, "\(outcome)")
                #expect(outcome["retried"] as? Bool == false)
            }
            #expect(Self.verifyQuorum(scenario, witnesses).0 == 0)

            // The witnesses cosign a checkpoint the ledger does not store: they are ahead of its memory.
            scenario.append([scenario.file(scenario.mandate(binding: "enrollment:device-3"))], at: Self.now())
            let unstored = scenario.scratch.path("unstored.note")
            let printed = CLI.run(
                ["witness", "submit", scenario.ledger, "--trust", WitnessTests.trust(scenario), "--out", unstored]
                    + witnesses.flatMap { ["--witness", $0.submitArgument] })
            #expect(printed.status == 0, "\(printed.stderr)")
            let note = try SignedNote(parsing: try String(contentsOfFile: unstored, encoding: .utf8))
            #expect(note.signatures.count == 3)  // the log's, then the two witnesses' lines
            let independent = runProcess(
                "python3",
                [Self.interop.appendingPathComponent("cosigcheck.py").path, unstored, logKey, ours.vkey, theirs.vkey])
            #expect(independent.status == 0, "\(independent.stdout) \(independent.stderr)")
            scenario.append([scenario.file(scenario.mandate(binding: "enrollment:device-4"))], at: Self.now())
            let third = try Self.submit(scenario, witnesses)
            #expect(third.status == 0, "\(third.report) \(third.stderr)")
            for outcome in Self.outcomes(third.report) {
                #expect(outcome["retried"] as? Bool == true, "\(outcome)")
            }
            #expect(ours.log.contains("409 POST /add-checkpoint"), "\(ours.log)")
            let final = Self.verifyQuorum(scenario, witnesses)
            #expect(final.0 == 0, "\(final.1)")
            ours.stop()
            theirs.stop()
        }
    }

    /// The Python client submits the example ledger's checkpoints, with proofs from its published entry
    /// bundles, to our witness, and checks every answer: 200 with a cosignature that verifies, 400 malformed,
    /// 404 unknown origin, 403 unknown key or a failing signature, 405, 409 text/x.tlog.size, 413, 422 bad
    /// proofs, a stalled client cut off, and twelve concurrent clients. The witness's memory is on disk
    /// (canonical JSON, the latest size) and a restarted witness answers from it.
    @Test func thePythonClientDrivesOurWitnessAndItsStateSurvivesARestart() async throws {
        await failingIfHung {
            let scratch = ScratchDirectory()
            let example = Self.packageRoot.appendingPathComponent("ledger-example/ledger.git").path
            let trust = Self.packageRoot.appendingPathComponent("ledger-example/trust.pub").path
            let site = scratch.path("site")
            let published = CLI.run(["publish", example, site, "--trust", trust, "--state", scratch.path("auditor")])
            #expect(published.status == 0, "\(published.stderr)")
            let checkpoint = try String(contentsOfFile: site + "/checkpoint", encoding: .utf8)
            let head = try #require(TreeHead(text: try SignedNote(parsing: checkpoint).text))
            let exampleLog = try Self.exampleLogKey()
            let ownSeed = String(repeating: "55", count: 32)
            let ownLog = Self.python(["own-log-key", ownSeed]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let state = scratch.path("witness-state")
            let logs = [exampleLog, ownLog]
            let witness = try Self.serve(
                scratch, name: "ours.example", seed: "43", logs: logs, state: state,
                extra: ["--rate-limit", "0", "--timeout", "PT1S"])
            let run = Self.python(["example", witness.url, witness.vkey, example, site, exampleLog])
            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            #expect(run.stdout.contains("ok a bad proof"))
            #expect(run.stdout.contains("ok a stalled client is cut off"))
            let own = Self.python(["own-log", witness.url, witness.vkey, ownSeed])
            #expect(own.status == 0, "\(own.stdout) \(own.stderr)")
            #expect(own.stdout.contains("ok after 12 concurrent clients"))
            witness.stop()

            // What the witness remembers, on disk: one canonical JSON file per log, the latest sizes.
            var sizes: [String: Int64] = [:]
            let folders = try FileManager.default.contentsOfDirectory(atPath: state + "/witness")
            for folder in folders {
                for file in try FileManager.default.contentsOfDirectory(atPath: state + "/witness/" + folder) {
                    let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(state)/witness/\(folder)/\(file)"))
                    let object = try CanonicalJSON.parse(Array(bytes))
                    #expect(CanonicalJSON.encode(object) == Array(bytes))
                    if case .integer(let size)? = object["size"] {
                        sizes[try #require(object["origin"]?.stringValue)] = size
                    }
                }
            }
            #expect(sizes == [head.origin: Int64(head.size), "python.example/log": 15])

            let restarted = try Self.serve(scratch, name: "ours.example", seed: "43", logs: logs, state: state)
            let latest = Self.python(["latest", restarted.url, site + "/checkpoint", "\(head.size)"])
            #expect(latest.status == 0, "\(latest.stdout) \(latest.stderr)")
            restarted.stop()
        }
    }

    /// `--rate-limit 2`: two requests a minute per log, as a bucket of two; the third at once is 429 with
    /// Retry-After.
    @Test func aLogOverItsBudgetIsAnswered429() async throws {
        await failingIfHung {
            let scratch = ScratchDirectory()
            let example = Self.packageRoot.appendingPathComponent("ledger-example/ledger.git").path
            let logKey = try Self.exampleLogKey()
            let witness = try Self.serve(
                scratch, name: "ours.example", seed: "44", logs: [logKey], extra: ["--rate-limit", "2"])
            let run = Self.python(["rate-limit", witness.url, example])
            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            witness.stop()
        }
    }

    static func exampleLogKey() throws -> String {
        let example = packageRoot.appendingPathComponent("ledger-example/ledger.git").path
        let descriptor = runProcess("git", ["--git-dir", example, "show", "HEAD:ledger.json"]).stdout
        return try #require(try CanonicalJSON.parse(Array(descriptor.utf8))["log"]?.stringValue)
    }

    /// A witness that does not cosign — one that does not know the log (404), one whose answer does not
    /// verify under the key given, one nobody listens for, one that never answers — is named with the
    /// reason, exit 1, and what the others cosigned is still stored.
    @Test func submitNamesEachWitnessThatDidNotCosign() async throws {
        await failingIfHung {
            let scenario = WitnessTests.ledger()
            let logKey = try Self.logKey(scenario)
            let good = try Self.serve(scenario.scratch, name: "good.example", seed: "45", logs: [logKey])
            let stranger = try Self.serve(
                scenario.scratch, name: "stranger.example", seed: "46", logs: [try Self.exampleLogKey()])
            let impostor = try Self.serve(scenario.scratch, name: "impostor.example", seed: "47", logs: [logKey])
            // The impostor answers with its own key, not the one the vendor was given for it.
            let otherKey = try #require(
                NoteKey(
                    name: "impostor.example", type: NoteKey.cosignatureV1,
                    publicKey: Ed25519.PrivateKey(seed: [UInt8](repeating: 0x48, count: 32))!.publicKey))
            // A listener that never accepts: the connection opens (the kernel's backlog) and no answer comes.
            let silent = Process()
            silent.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            silent.arguments = [
                "python3", "-c",
                "import signal,socket,time\nsignal.pthread_sigmask(signal.SIG_UNBLOCK,{signal.SIGTERM})\n"
                    + "s=socket.socket()\ns.bind(('127.0.0.1',0))\ns.listen()\n"
                    + "print(s.getsockname()[1],flush=True)\ntime.sleep(120)",
            ]
            let silentOut = Pipe()
            silent.standardOutput = silentOut
            try silent.run()
            let silentPort = String(decoding: silentOut.fileHandleForReading.availableData, as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let result = CLI.run(
                [
                    "witness", "submit", scenario.ledger, "--trust", WitnessTests.trust(scenario), "--signing-key",
                    scenario.signer, "--timeout", "PT2S",
                    "--witness", good.submitArgument, "--witness", stranger.submitArgument,
                    "--witness", "impostor.example=\(impostor.url)=\(otherKey)",
                    "--witness", "nobody.example=http://127.0.0.1:1=\(Self.key("nobody.example", 0x49))",
                    "--witness", "silent.example=http://127.0.0.1:\(silentPort)=\(Self.key("silent.example", 0x4a))",
                ])
            silent.terminate()
            silent.waitUntilExit()
            #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("good.example: cosigned"))
            #expect(
                result.stderr.contains("stranger.example: not cosigned: 404 unknown log origin"), "\(result.stderr)")
            #expect(
                result.stderr.contains("impostor.example: not cosigned: 200 without one valid cosignature/v1 line"))
            #expect(result.stderr.contains("nobody.example: not cosigned"))
            #expect(result.stderr.contains("silent.example: not cosigned"))
            #expect(result.stdout.contains("stored 1 cosignature in "))
            #expect(Self.verifyQuorum(scenario, [good]).0 == 0)
            for witness in [good, stranger, impostor] { witness.stop() }
        }
    }

    static func key(_ name: String, _ seed: UInt8) -> NoteKey {
        NoteKey(
            name: name, type: NoteKey.cosignatureV1,
            publicKey: Ed25519.PrivateKey(seed: [UInt8](repeating: seed, count: 32))!.publicKey)!
    }

    @Test func witnessHasHelpWithExamplesAndRefusesBadOptions() {
        let help = CLI.run(["witness", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: onym-ledger witness serve"))
        #expect(help.stdout.contains("\nEXAMPLES:\n  onym-ledger witness serve "))
        #expect(help.stdout.contains("onym-ledger witness submit "))
        #expect(CLI.run(["witness"]).status == 64)
        #expect(CLI.run(["witness", "submit", "ledger.git", "--witness", "no-equals"]).status == 64)
        let named = CLI.run([
            "witness", "submit", "ledger.git", "--witness", "other.example=http://x=\(Self.key("w.example", 1))",
        ])
        #expect(named.status == 64)
        #expect(named.stderr.contains("NAME is the key's name"))
        let scratch = ScratchDirectory()
        let key = scratch.path("w.key")
        #expect(CLI.run(["keygen", "--out", key, "--seed", String(repeating: "50", count: 32)]).status == 0)
        let noLog = CLI.run(["witness", "serve", "--key", key, "--name", "w.example"])
        #expect(noLog.status == 64)
        let badAddress = CLI.run([
            "witness", "serve", "--key", key, "--name", "w.example", "--log", Self.key("log", 2).description,
        ])
        #expect(badAddress.status == 64)  // a cosignature key is not a log key
        // Not a numeric address, and an address this machine does not have (TEST-NET-3): nothing listens.
        for address in ["example.com:80", "203.0.113.7:7380"] {
            let cannotListen = CLI.run([
                "witness", "serve", "--key", key, "--name", "w.example", "--listen", address, "--log",
                (try? Self.exampleLogKey()) ?? "",
            ])
            #expect(cannotListen.status == 64, "\(cannotListen.stderr)")
            #expect(cannotListen.stderr.contains("--listen \(address)"))
        }
    }
}
