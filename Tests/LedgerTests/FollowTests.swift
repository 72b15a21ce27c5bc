import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerFollow
import LedgerStore
@testable import LedgerWriter

/// `follow`: a reference backend's SQLite store (onym-wire §5), made by the stock `sqlite3` tool from
/// ``BackendStoreScript``, mirrored into the ledger — idempotently, resumably, and refusing a store whose
/// chain is broken or whose imported rows changed.
@Suite("follow: mirror the backend store", .serialized)
struct FollowTests {
    /// The scenario's ledger, a store beside it, and the follow command line.
    struct Setup {
        let scenario = LedgerScenario()
        var backend: SyntheticBackend
        let store: BackendStoreFile
        let seed: String

        /// A store holding `devices` devices' history (``SyntheticBackend/addDevices(_:)``).
        init(devices: Int = 0) {
            backend = SyntheticBackend(scenario: scenario)
            store = BackendStoreFile(path: scenario.scratch.path("moderation.db"))
            seed = backend.seedFile()
            if devices > 0 {
                backend.addDevices(devices)
                flush()
            }
        }

        /// The ledger verifies clean, pinned to the scenario's key.
        func expectVerifies() {
            let verified = CLI.run(["verify", scenario.ledger, "--trust", scenario.signer + ".pub"])
            #expect(verified.status == 0, "\(verified.stdout)")
        }

        func follow(_ extra: [String] = []) -> (status: Int32, stdout: String, stderr: String) {
            CLI.run(
                [
                    "follow", scenario.ledger, "--sqlite", store.path, "--signing-key", scenario.signer,
                    "--countersign-key", seed, "--json",
                ] + extra)
        }

        mutating func flush() { store.run(&backend.script) }
    }

    static func pass(_ result: (status: Int32, stdout: String, stderr: String)) throws -> JSONObject {
        #expect(result.status == 0, "\(result.stderr)")
        return try CanonicalJSON.parse(Array(result.stdout.utf8))
    }

    /// A refused pass: exit 65, stderr naming each of `evidence`, the ledger's tip still `tip`.
    static func expectRefused(
        _ result: (status: Int32, stdout: String, stderr: String), naming evidence: [String], tip: String,
        _ setup: Setup
    ) {
        #expect(result.status == 65)
        for text in evidence { #expect(result.stderr.contains(text), "\(result.stderr)") }
        #expect(setup.scenario.tip == tip)
    }

    static func count(_ pass: JSONObject, _ group: String, _ kind: String) -> Int64? {
        if case .integer(let n)? = pass[group]?.objectValue?[kind] { return n }
        return nil
    }

    static func commits(_ pass: JSONObject) -> Int {
        if case .array(let commits)? = pass["commits"] { return commits.count }
        return -1
    }

    /// The example's store (``ExampleBackendStore``, cut before `cut` when given) in a fresh scratch folder, a
    /// fresh ledger initialized as the example was, and the `follow` arguments that mirror one into the other.
    struct ExampleMirror: ~Copyable {
        let scratch = ScratchDirectory()
        let store: BackendStoreFile
        let ledger: String
        let key: String
        let arguments: [String]

        init(before cut: String? = nil) throws {
            var (script, initArguments) = ExampleBackendStore.script(example: ExampleLedgerTests.example, before: cut)
            store = BackendStoreFile(path: scratch.path("example.db"))
            store.run(&script)
            key = scratch.path("vendor")
            #expect(CLI.run(["keygen", "--out", key, "--seed", String(repeating: "a1", count: 32)]).status == 0)
            ledger = scratch.path("mirror.git")
            let made = CLI.run(["init", ledger, "--signing-key", key] + initArguments)
            #expect(made.status == 0, "\(made.stderr)")
            let seed = scratch.path("interface.seed")
            try Data(Hex.encode(ExampleBackendStore.interfaceSeed).utf8).write(to: URL(fileURLWithPath: seed))
            arguments = [
                "follow", ledger, "--sqlite", store.path, "--signing-key", key, "--countersign-key", seed, "--json",
            ]
        }
    }

    /// The trailers of the example's last commit dated before `cut` (its whole history when nil).
    static func exampleTrailers(before cut: String? = nil) throws -> LedgerTrailers {
        let repository = try Repository.open(ExampleLedgerTests.example.appendingPathComponent("ledger.git").path)
        var commit = try #require(try repository.referenceTarget(LedgerLayout.branch))
        if let cut = cut.flatMap(Instant.parse) {
            while try repository.commit(commit).time >= cut.seconds {
                commit = try #require(try repository.commit(commit).parents.first)
            }
        }
        return try #require(LedgerTrailers(message: try repository.commit(commit).message))
    }

    /// The key test: the store the example's backend would hold re-imports into a fresh ledger whose write log
    /// ends in the example's own head, entry for entry; a second pass finds nothing new. The store is the
    /// example's history up to its first grant redemption: `follow` does not import recoveries (the next test).
    @Test func theExamplesStoreReimportsWithTheExamplesLogHead() throws {
        let cut = try #require(ExampleBackendStore.firstRedemption(example: ExampleLedgerTests.example))
        #expect(cut == "2026-09-07T10:00:00Z")  // Nadia's recovery
        let mirror = try ExampleMirror(before: cut)
        let first = try Self.pass(CLI.run(mirror.arguments))
        let trailers = try Self.exampleTrailers(before: cut)
        #expect(first["logSize"] == .integer(trailers.logSize))
        #expect(first["logHead"] == .string(trailers.logHead), "\(first)")
        #expect(
            mirror.store.query("SELECT entry_hash FROM write_log ORDER BY sequence DESC LIMIT 1") == trailers.logHead)
        #expect(Self.count(first, "imported", "mandates") == 75)
        #expect(Self.count(first, "imported", "verdicts") == 190)
        #expect(first["recoveriesNotImported"] == .integer(0))
        let second = try Self.pass(CLI.run(mirror.arguments))
        #expect(Self.commits(second) == 0)
        #expect(Self.count(second, "alreadyImported", "writes") == trailers.logSize)
        // The mirror is a ledger an auditor verifies: authentic, with exactly the three writes the example's
        // designation revocation governs as conduct findings — the interface's revocation record is not a
        // backend store row (onym-wire §5), so the mirror cannot hold it.
        let verified = CLI.run(["verify", mirror.ledger, "--trust", mirror.key + ".pub"])
        #expect(verified.status == 2, "\(verified.stdout)")
        #expect(verified.stdout.contains("3 conduct finding(s)"), "\(verified.stdout)")
        for sequence in ["77", "78", "81"] {
            #expect(verified.stdout.contains("[sequence \(sequence)]"), "\(verified.stdout)")
        }
    }

    /// The example's whole store holds a `recoveries` row (Nadia's), which `follow` does not import; the write
    /// the backend then logged for her new phone's binding stops `follow` (65) by the ledger's own
    /// MandateScopePolicy — no mandate in the mirror names that binding, since the recovery that moved hers
    /// there is not in it (docs/DECISIONS.md "follow: recoveries are not imported"). The batches before the
    /// refused one are published: a prefix of the example's log, short of that write.
    @Test func theExamplesWholeStoreStopsAtTheRecoveredDevicesWrite() throws {
        let mirror = try ExampleMirror()
        #expect(mirror.store.query("SELECT count(*) FROM recoveries") == "1")
        let recovered = ExampleLedgerTests.actorBinding("nadia@nadia-phone-2")
        let written = try #require(
            Int64(
                mirror.store.query(
                    "SELECT min(sequence) FROM write_log WHERE device_binding = \(BackendStoreScript.text(recovered))"))
        )
        let arguments = mirror.arguments + ["--batch-size", "100"]
        let stopped = CLI.run(arguments)
        #expect(stopped.status == 65, "\(stopped.stdout)\(stopped.stderr)")
        #expect(
            stopped.stderr.contains(
                "write_log [sequence \(written)]: MandateScopePolicy: a write to device binding \(recovered), "
                    + "which no mandate in the ledger names"), "\(stopped.stderr)")
        // The refusal says what is behind it: the recovery that moved the mandate is a row follow does not import.
        #expect(
            stopped.stderr.contains(
                "the store has 1 recoveries row, which follow does not import (docs/DECISIONS.md, \"follow: recoveries "
                    + "are not imported\")"), "\(stopped.stderr)")
        let repository = try Repository.open(mirror.ledger)
        let tip = try #require(try repository.referenceTarget(LedgerLayout.branch))
        let mirrored = try #require(LedgerTrailers(message: try repository.commit(tip).message))
        #expect(mirrored.logSize > 0 && mirrored.logSize < written, "\(mirrored.logSize), \(written)")
        #expect(
            mirrored.logHead
                == mirror.store.query("SELECT entry_hash FROM write_log WHERE sequence = \(mirrored.logSize)"))
        // Pass after pass, the same refusal, nothing more published: the write is never skipped.
        let again = CLI.run(arguments)
        #expect(again.status == 65 && again.stderr.contains("MandateScopePolicy"), "\(again.stderr)")
        #expect(try repository.referenceTarget(LedgerLayout.branch) == tip)
    }

    /// A second pass imports only what the backend added (by another process, to the WAL store) since the
    /// first; a third imports nothing. The store is never written.
    @Test func passesImportOnlyWhatIsNew() throws {
        var setup = Setup(devices: 6)
        #expect(setup.store.query("PRAGMA journal_mode") == "wal")
        let before = try Data(contentsOf: URL(fileURLWithPath: setup.store.path))
        let first = try Self.pass(setup.follow())
        #expect(Self.count(first, "imported", "mandates") == 6)
        #expect(Self.count(first, "imported", "verdicts") == 8)
        #expect(Self.count(first, "imported", "writes") == 8)
        #expect(try Data(contentsOf: URL(fileURLWithPath: setup.store.path)) == before, "follow wrote to the store")
        setup.backend.addDevices(3)
        setup.flush()
        let second = try Self.pass(setup.follow())
        #expect(Self.count(second, "imported", "mandates") == 3)
        #expect(Self.count(second, "imported", "writes") == 4)
        #expect(Self.count(second, "alreadyImported", "mandates") == 6)
        #expect(second["logHead"] == .string(setup.backend.script.head))
        let third = try Self.pass(setup.follow())
        #expect(Self.commits(third) == 0)
        setup.expectVerifies()
    }

    /// `follow --witness`: after a pass that published, the new checkpoint goes to the witness and its
    /// cosignature is stored in a later commit, which `verify --witness` accepts; with the witness down, the
    /// pass still publishes and exits 0, naming the witness on stderr.
    @Test func aPassThatPublishedIsSubmittedToTheWitnesses() throws {
        let scratch = ScratchDirectory()
        let setup = Setup(devices: 3)
        let logKey = try WitnessProtocolTests.logKey(setup.scenario)
        let witness = try WitnessProtocolTests.serve(scratch, name: "auditor.example", seed: "a1", logs: [logKey])
        defer { witness.stop() }
        let trust = ["--trust", setup.scenario.signer + ".pub"]
        let first = setup.follow(["--witness", witness.submitArgument] + trust)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("stored 1 cosignature in "), "\(first.stderr)")
        #expect(try Self.pass(first)["commits"] != nil, "follow --json still prints the pass alone on stdout")
        let verified = CLI.run(
            ["verify", setup.scenario.ledger, "--witness", witness.vkey, "--quorum", "1"] + trust)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        // A witness that is down: a pass publishes all the same, and the witness is named. (A fresh ledger: the
        // synthetic store's events are dated in the past, before the cosignature commit made at the witness's
        // clock; a live store's are not.)
        witness.stop()
        let other = Setup(devices: 2)
        let second = other.follow(["--witness", witness.submitArgument, "--trust", other.scenario.signer + ".pub"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(Self.commits(try Self.pass(second)) >= 1)
        #expect(second.stderr.contains("auditor.example: not cosigned"), "\(second.stderr)")
        // Without a root of trust to read the log under, --witness is refused before anything is published.
        let untrusted = Setup(devices: 1)
        let before = untrusted.scenario.tip
        let refused = untrusted.follow(["--witness", witness.submitArgument])
        #expect(refused.status == 64 && refused.stderr.contains("--witness needs --trust"), "\(refused.stderr)")
        #expect(untrusted.scenario.tip == before, "a refused follow published")
    }

    /// A backlog is published in bounded batches by event time, each within its time window.
    @Test func aBacklogGoesInBoundedBatchesInTimeOrder() throws {
        let setup = Setup(devices: 9)
        let tipBefore = setup.scenario.commits.count
        let pass = try Self.pass(setup.follow(["--batch-size", "5"]))
        // 9 mandates + 12 verdicts + 12 writes = 33 rows: at least 7 batches of at most 5 (a cut waits for a
        // time that keeps every window).
        #expect(Self.commits(pass) >= 7)
        #expect(setup.scenario.commits.count == tipBefore + Self.commits(pass))
        let times = runProcess("git", ["--git-dir", setup.scenario.ledger, "log", "--reverse", "--format=%ct"]).stdout
            .split(separator: "\n").compactMap { Int($0) }
        #expect(times == times.sorted())
        setup.expectVerifies()
    }

    /// Write rows whose `recorded_at` runs backwards (the backend stamps a write before its transaction
    /// commits, so the next sequence may carry the earlier second) stay in one batch even at one row a batch:
    /// a cut between them would date the later row before its parent commit (docs/FORMAT.md "Time").
    @Test func writesWhoseTimesRunBackwardsAreNotCutApart() throws {
        var setup = Setup(devices: 1)
        let binding = "enrollment:device-1"
        for (offset, caseOpen) in [(20, false), (19, true), (21, false)] {
            setup.backend.script.write(
                recordedAt: setup.backend.clock.adding(seconds: Int64(offset)).rfc3339, deviceBinding: binding,
                authorizedBy: "reconciliation", caseOpen: caseOpen, banned: false)
        }
        setup.flush()
        let pass = try Self.pass(setup.follow(["--batch-size", "1"]))
        #expect(pass["logHead"] == .string(setup.backend.script.head))
        let verified = CLI.run(["verify", setup.scenario.ledger, "--trust", setup.scenario.signer + ".pub"])
        #expect([0, 2].contains(verified.status), "\(verified.stdout)")
        #expect(!verified.stdout.contains("TimeOrderPolicy"), "\(verified.stdout)")
    }

    /// A row dated before the ledger's tip cannot be published without backdating it: refused, naming it.
    @Test func aRowDatedBeforeTheTipIsRefused() throws {
        let setup = Setup(devices: 1)
        setup.scenario.append(
            [setup.scenario.file(setup.scenario.mandate(binding: "enrollment:other"))], at: "2026-09-01T00:00:00Z")
        Self.expectRefused(
            setup.follow(), naming: ["store.backdated", "verdicts ", "before the ledger's tip"],
            tip: setup.scenario.tip, setup)
    }

    /// A writer holding an open transaction (another process, WAL store) neither blocks the pass nor shows it
    /// rows it has not committed; once committed, the next pass imports them.
    @Test func aWriterMidTransactionIsNotSeenUntilItCommits() throws {
        var setup = Setup(devices: 2)
        _ = try Self.pass(setup.follow())
        setup.backend.addDevices(1)
        let pending = setup.backend.script.take()
        let body = pending.replacingOccurrences(of: "BEGIN;\n", with: "").replacingOccurrences(
            of: "\nCOMMIT;\n", with: "")
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let program = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("BEGIN IMMEDIATE")
            for statement in sys.stdin.read().split(";\\n"):
                if statement.strip(): db.execute(statement)
            print("holding", flush=True)
            sys.stdout.close()
            open(sys.argv[2]).read()
            db.execute("COMMIT")
            """
        let gate = setup.scenario.scratch.path("gate.fifo")
        #expect(mkfifo(gate, 0o600) == 0)
        writer.arguments = ["python3", "-c", program, setup.store.path, gate]
        let input = Pipe()
        let output = Pipe()
        writer.standardInput = input
        writer.standardOutput = output
        try writer.run()
        input.fileHandleForWriting.write(Data(body.utf8))
        try input.fileHandleForWriting.close()
        // One read: the test holds the pipe's other end too, so there is no end of file to wait for.
        let ready = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        #expect(ready.contains("holding"))
        let during = try Self.pass(setup.follow())
        #expect(Self.commits(during) == 0, "rows of an uncommitted transaction were imported: \(during)")
        let release = FileHandle(forWritingAtPath: gate)!
        try release.close()
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        let after = try Self.pass(setup.follow())
        #expect(Self.count(after, "imported", "mandates") == 1)
        #expect(after["logHead"] == .string(setup.backend.script.head))
    }

    /// A broken chain — a row's field changed, its hash left — is refused with the sequence and the hashes,
    /// exit 65, nothing written.
    @Test func aBrokenChainIsRefusedWithItsSequence() throws {
        let setup = Setup(devices: 3)
        setup.store.run(sql: "UPDATE write_log SET authorized_by = 'reconciliation' WHERE sequence = 2;")
        let tip = setup.scenario.tip
        Self.expectRefused(
            setup.follow(), naming: ["write_log sequence 2", "the chain is broken at sequence 2", "hash to"], tip: tip,
            setup)
    }

    /// A row already imported that the store changed — even with the chain rehashed after it, or a verdict's
    /// receipt time — is refused, naming the row and both versions; nothing written.
    @Test func aChangedImportedRowIsRefused() throws {
        let setup = Setup(devices: 3)
        _ = try Self.pass(setup.follow())
        let tip = setup.scenario.tip
        // The whole chain rewritten from row 1 with another outcome: internally intact, not what was imported.
        var rewritten = BackendStoreScript(withSchema: false)
        rewritten.raw("DELETE FROM write_log;")
        let rows = setup.store.query(
            "SELECT recorded_at, device_binding, authorized_by, case_open, banned FROM write_log ORDER BY sequence")
        for (index, row) in rows.split(separator: "\n").enumerated() {
            let fields = row.split(separator: "|").map(String.init)
            rewritten.write(
                recordedAt: fields[0], deviceBinding: fields[1], authorizedBy: fields[2], caseOpen: fields[3] == "1",
                banned: fields[4] == "1", outcome: index == 0 ? "failed: mark_write_failed" : "ok")
        }
        let original = setup.store.query("SELECT * FROM write_log")
        setup.store.run(&rewritten)
        Self.expectRefused(
            setup.follow(), naming: ["store.changedImportedRow", "write_log sequence 4"], tip: tip, setup)
        // Restored, then a verdict's receipt time moved.
        setup.store.run(sql: "DELETE FROM write_log;")
        for row in original.split(separator: "\n") {
            let fields = row.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            setup.store.run(
                sql: "INSERT INTO write_log VALUES (\(fields[0]), "
                    + fields[1...].map { Int($0) != nil ? $0 : BackendStoreScript.text($0) }.joined(separator: ", ")
                    + ");")
        }
        #expect(try Self.commits(Self.pass(setup.follow())) == 0)
        setup.store.run(
            sql:
                "UPDATE verdicts SET received_at = '2026-08-20T00:00:00Z' WHERE rowid = (SELECT min(rowid) FROM verdicts);"
        )
        Self.expectRefused(setup.follow(), naming: ["verdicts ", "received_at"], tip: tip, setup)
    }

    /// `recoveries` rows are reported as not imported (the store keeps no grant bytes for them).
    @Test func recoveriesAreReportedNotImported() throws {
        var setup = Setup()
        setup.backend.addDevices(1)
        setup.backend.script.recovery(
            grantRef: String(repeating: "ab", count: 32), caseId: "case-1", from: "enrollment:device-1",
            to: "enrollment:device-9", at: "2026-08-03T00:00:00Z")
        setup.flush()
        let result = setup.follow()
        let pass = try Self.pass(result)
        #expect(pass["recoveriesNotImported"] == .integer(1))
        #expect(result.stderr.contains("1 recoveries rows not imported"), "\(result.stderr)")
        // A write the backend then logs for the new binding names no mandate the ledger holds: refused by the
        // ledger's own policy, visibly, until the store keeps the presented grant's bytes (docs/DECISIONS.md).
        setup.backend.script.write(
            recordedAt: "2026-08-03T00:00:01Z", deviceBinding: "enrollment:device-9", authorizedBy: "reconciliation",
            caseOpen: false, banned: false)
        setup.flush()
        Self.expectRefused(
            setup.follow(), naming: ["MandateScopePolicy", "enrollment:device-9"], tip: setup.scenario.tip, setup)
    }

    /// A store that is not the reference schema, and a missing file, are refused (65) without creating it.
    @Test func aStoreThatIsNotAReferenceStoreIsRefused() throws {
        let setup = Setup()
        let missing = CLI.run([
            "follow", setup.scenario.ledger, "--sqlite", setup.scenario.scratch.path("none.db"), "--signing-key",
            setup.scenario.signer, "--countersign-key", setup.seed,
        ])
        #expect(missing.status == 65)
        #expect(!FileManager.default.fileExists(atPath: setup.scenario.scratch.path("none.db")))
        setup.store.run(sql: "CREATE TABLE mandates (mandate_ref TEXT);")
        let partial = setup.follow()
        #expect(partial.status == 65)
        #expect(partial.stderr.contains("store.schema"), "\(partial.stderr)")
    }

    /// The countersigning key is the backend's per-authority key: the root at epoch 0, the derived key at a
    /// configured epoch (onym-wire §2.2) — the signature the reference returns, byte for byte (§6.2).
    @Test func theCountersignatureIsTheReferences() throws {
        let signer = InterfaceCountersigner(root: FixtureSeed.repeated(0x0B))
        #expect(
            signer.key(for: "onym:component:onym-authority").publicKey.onymKey
                == "onym:key:66be7e332c7a453332bd9d0a7f7db055f5c5ef1a06ada66d98b39fb6810c473a")
        let user = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x05))!
        let unsigned = JSONObject([
            ("acceptedAt", .string("2026-08-08T00:00:00Z")), ("authority", .string("onym:component:onym-authority")),
            ("classes", .array([.string("csam")])),
            ("deviceBinding", .string("enrollment:00000000-0000-4000-8000-000000000000")),
            ("interface", .string("onym:component:onym-ios")), ("mandateVersion", .integer(1)),
            ("manifestHash", .string(String(repeating: "0", count: 64))), ("user", .string(user.publicKey.onymKey)),
        ])
        var request = unsigned
        request.set(
            "signatures", .array([.string(Base64.encode(user.signature(for: CanonicalJSON.encode(unsigned))))]))
        let mandate = try signer.countersigned(CanonicalJSON.encode(request))
        #expect(mandate.ref.hex == "1e45818186bf94f95785175e1e206085908dd6d10099b9d5a51f3df6af73f3ce")
        #expect(
            Base64.encode(mandate.signatures[1])
                == "jsV1yIbhIP1oGxvCcD8n+MpugdxzCaJak8Uf1R6sFHKlyP1n82zRvXdZH630kPCYhI3/OWp6zpNHsJYyNE8zDg==")
        let rotated = InterfaceCountersigner(
            root: FixtureSeed.repeated(0x0B),
            epochs: try InterfaceCountersigner.epochs("onym:component:onym-authority=2").get())
        #expect(
            rotated.key(for: "onym:component:onym-authority").publicKey
                == FixtureInterface().countersigningKey(for: "onym:component:onym-authority", epoch: 2).publicKey)
    }

    /// On a terminal (a pseudo-terminal from util-linux `script`) a pass shows a progress line on stderr;
    /// piped, it shows none.
    @Test func progressShowsOnATerminalOnly() throws {
        func command(_ setup: Setup) -> [String] {
            [
                CLI.binary, "follow", setup.scenario.ledger, "--sqlite", setup.store.path, "--signing-key",
                setup.scenario.signer, "--countersign-key", setup.seed, "--batch-size", "2",
            ]
        }
        let piped = Setup(devices: 3)
        let quiet = CLI.run(Array(command(piped).dropFirst()))
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(!quiet.stderr.contains("rows published"), "\(quiet.stderr)")
        let shown = Setup(devices: 3)
        let line = command(shown).map { "'\($0)'" }.joined(separator: " ")
        let terminal = runProcess("script", ["-qec", line, "/dev/null"])
        #expect(terminal.status == 0, "\(terminal.stdout)")
        #expect(terminal.stdout.contains("\rfollow: 2/11 rows published"), "\(terminal.stdout)")
        #expect(terminal.stdout.contains("\rfollow: 11/11 rows published"), "\(terminal.stdout)")
    }

    /// `--interval` passes, prints each pass, and keeps running (killed here once its first pass is printed).
    @Test func intervalModePassesAndKeepsRunning() throws {
        let setup = Setup(devices: 2)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = [
            "follow", setup.scenario.ledger, "--sqlite", setup.store.path, "--signing-key", setup.scenario.signer,
            "--countersign-key", setup.seed, "--interval", "1h", "--json",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // read(2) returns what the pass printed, without waiting for the end of the stream (there is none).
        var printed: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !printed.contains(UInt8(ascii: "\n")) {
            let count = read(output.fileHandleForReading.fileDescriptor, &buffer, buffer.count)
            if count <= 0 { break }
            printed += buffer.prefix(count)
        }
        #expect(process.isRunning)
        // SIGKILL: a child of the test runner inherits its blocked signals, SIGTERM among them.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let pass = try CanonicalJSON.parse(Array(printed.prefix { $0 != UInt8(ascii: "\n") }))
        #expect(Self.count(pass, "imported", "mandates") == 2)
        #expect(pass["logHead"] == .string(setup.backend.script.head))
    }

    /// `follow --help` has its examples and exit codes; bad options are usage errors (64) that name the option.
    @Test func helpAndUsage() {
        let help = CLI.run(["follow", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: onym-ledger follow"))
        #expect(help.stdout.contains("\nEXAMPLES:\n  onym-ledger follow "))
        #expect(help.stdout.contains("Exit codes:"))
        let setup = Setup()
        let base = [
            "follow", setup.scenario.ledger, "--sqlite", setup.store.path, "--signing-key", setup.scenario.signer,
        ]
        let noSeed = CLI.run(base)
        #expect(noSeed.status == 64)
        #expect(noSeed.stderr.contains("--countersign-key"))
        let badSeed = CLI.run(base + ["--countersign-key", setup.scenario.signer])
        #expect(badSeed.status == 64)
        #expect(badSeed.stderr.contains("64 hex digits"))
        let both = CLI.run(base + ["--countersign-key", setup.seed, "--once", "--interval", "1m"])
        #expect(both.status == 64)
        let interval = CLI.run(base + ["--countersign-key", setup.seed, "--interval", "soon"])
        #expect(interval.status == 64)
        #expect(interval.stderr.contains("--interval"))
        let epochs = CLI.run(base + ["--countersign-key", setup.seed, "--key-epochs", "onym:component:x"])
        #expect(epochs.status == 64)
        #expect(epochs.stderr.contains("--key-epochs"))
    }
}
