import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerWriter

/// Issue 12, "a killed writer never blocks the next": writers serialize on a kernel lock that dies
/// with its holder; a stale ref lock is recovered; a live holder is named.
@Suite("Writer lock: kills, stale ref locks, live holders", .serialized)
struct WriterLockTests {
    static func batch(_ scenario: LedgerScenario, second: Int) -> (file: String, at: String) {
        let at = Instant.parse("2026-08-10T00:00:00Z")!.adding(seconds: Int64(second)).rfc3339
        let file = scenario.writeRequests([(at, "enrollment:device-1", "reconciliation", false, false, "ok")])
        return (file, at)
    }

    /// What a writer killed inside libgit2's ref update leaves: `refs/heads/main.lock`. The next append
    /// recovers it at once (before: "lost the compare-and-swap 1000 times" after ~10 s).
    @Test func aStaleRefLockLeftByADeadWriterIsRecovered() throws {
        let scenario = LedgerScenario()
        scenario.append([scenario.file(scenario.mandate())], at: "2026-08-09T00:00:00Z")
        let stale = scenario.ledger + "/refs/heads/main.lock"
        #expect(FileManager.default.createFile(atPath: stale, contents: Data((scenario.tip + "\n").utf8)))
        let (file, at) = Self.batch(scenario, second: 0)
        let started = Date()
        scenario.append([file], at: at)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(scenario.show(LedgerLayout.logEntryPath(1)) != nil)
    }

    /// A live writer holding the lock: the next one waits, then names it — no compare-and-swap count.
    @Test func aLiveWriterIsNamedNotCounted() throws {
        let scenario = LedgerScenario()
        scenario.append([scenario.file(scenario.mandate())], at: "2026-08-09T00:00:00Z")
        let path = scenario.ledger + "/" + WriterLock.fileName
        let fd = open(path, O_RDWR | O_CREAT, 0o644)
        #expect(flock(fd, LOCK_EX) == 0)
        _ = "pid \(getpid())\n".withCString { pwrite(fd, $0, strlen($0), 0) }
        let (file, at) = Self.batch(scenario, second: 0)
        let tip = scenario.tip
        let blocked = CLI.run(
            ["append", scenario.ledger, "--signing-key", scenario.signer, "--at", at, file],
            environment: ["ONYM_LEDGER_LOCK_TIMEOUT_SECONDS": "0.3"])
        #expect(blocked.status == 65)
        #expect(blocked.stderr.contains("another onym-ledger writer (pid \(getpid())) holds"), "\(blocked.stderr)")
        #expect(!blocked.stderr.contains("compare-and-swap"))
        #expect(scenario.tip == tip)
        close(fd)  // the holder goes away: the lock goes with it
        scenario.append([file], at: at)
    }

    /// 200 appends killed with SIGKILL at random points; after each, the same batch is retried and
    /// succeeds with no cleanup; at the end every batch is in the log exactly once and the ledger verifies.
    @Test func twoHundredRandomKillsNeverBlockLoseOrDuplicate() throws {
        let scenario = LedgerScenario()
        scenario.append([scenario.file(scenario.mandate())], at: "2026-08-09T00:00:00Z")
        let kills = Int(ProcessInfo.processInfo.environment["ONYM_KILL_LOOP"] ?? "") ?? 200
        var generator = SystemRandomNumberGenerator()
        var landedBeforeKill = 0
        for index in 0..<kills {
            let (file, at) = Self.batch(scenario, second: index)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLI.binary)
            let key = ["--idempotency-key", "batch-\(index)"]
            process.arguments =
                ["append", scenario.ledger, "--signing-key", scenario.signer, "--at", at] + key + [file]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32.random(in: 0...120_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .exit { landedBeforeKill += 1 }
            let retry = CLI.run(
                ["append", scenario.ledger, "--signing-key", scenario.signer, "--at", at] + key + [file])
            #expect(retry.status == 0, "kill \(index): \(retry.stderr)")
            if retry.status != 0 { return }
        }
        let repository = try Repository.open(scenario.ledger)
        let tip = try #require(try repository.referenceTarget(LedgerLayout.branch))
        var times: [String] = []
        for sequence in 1...Int64(kills + 1) {
            guard let bytes = try repository.blob(at: LedgerLayout.logEntryPath(sequence), inCommit: tip) else { break }
            times.append(try WriteLogEntry(json: try CanonicalJSON.parse(bytes)).recordedAtText)
        }
        #expect(times.count == kills)
        #expect(Set(times).count == kills)
        let verified = CLI.run([
            "verify", scenario.ledger, "--trust", scenario.signer + ".pub", "--at", "2026-09-01T00:00:00Z",
        ])
        #expect(verified.status == 0, "\(verified.stdout)")
        print("kill loop: \(kills) kills, \(landedBeforeKill) appends finished before their kill")
    }
}
