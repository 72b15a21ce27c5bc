import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
@testable import LedgerWriter

/// `follow` killed with SIGKILL at seeded instants loses nothing and imports nothing twice: each batch is one
/// commit, published whole or not at all, and the next pass reads what was published from the ledger.
/// `make test` runs 10 kills; `make follow-crash` runs 100 (`ONYM_FOLLOW_KILLS`, seed `ONYM_FOLLOW_KILL_SEED`).
@Suite("follow: kill -9 at any point", .serialized)
struct FollowCrashTests {
    /// How one pass is stopped.
    enum Kill: Equatable {
        /// The writer kills itself on reaching this step of an append (``CrashPoint``): mid-batch, every time.
        case atStep(String)
        /// SIGKILL from outside after a seeded delay: anywhere — opening the store, between batches, inside
        /// libgit2, after the pass.
        case afterDelay(microseconds: UInt32)
    }

    static func schedule(count: Int, seed: UInt64) -> [Kill] {
        var generator = SeededGenerator(state: seed)
        let steps = CrashPoint.allCases.map { Kill.atStep($0.rawValue) }
        let delayed = (0..<max(0, count - steps.count)).map { _ in
            Kill.afterDelay(microseconds: .random(in: 0...400_000, using: &generator))
        }
        return Array((steps + delayed).shuffled(using: &generator).prefix(max(count, 1)))
    }

    @Test func killedPassesLoseNothingAndImportNothingTwice() throws {
        var setup = FollowTests.Setup()
        let environment = ProcessInfo.processInfo.environment
        let seed = UInt64(environment["ONYM_FOLLOW_KILL_SEED"] ?? "") ?? 0x0F01_1033
        let kills = Self.schedule(count: Int(environment["ONYM_FOLLOW_KILLS"] ?? "") ?? 10, seed: seed)
        var landed = 0
        for (index, kill) in kills.enumerated() {
            // The backend keeps working between passes: every pass has batches to publish.
            setup.backend.addDevices(3)
            setup.flush()
            var environment = environment
            environment["XDG_STATE_HOME"] = setup.scenario.scratch.path("state")
            var step: String?
            var delay: UInt32?
            if case .atStep(let name) = kill { step = name }
            if case .afterDelay(let microseconds) = kill { delay = microseconds }
            let (killed, status) = try runKilled(
                [
                    "follow", setup.scenario.ledger, "--sqlite", setup.store.path, "--signing-key",
                    setup.scenario.signer, "--countersign-key", setup.seed, "--batch-size", "2",
                ], environment: environment, step: step, delayMicroseconds: delay)
            if killed { landed += 1 }
            if case .atStep(let step) = kill { #expect(killed, "kill \(index) at \(step)") }
            if !killed { #expect(status == 0, "kill \(index) (\(kill)): the pass failed") }
        }
        #expect(landed >= min(kills.count, CrashPoint.allCases.count), "\(landed) kills landed mid-pass")
        // One more pass takes in the rest; then the ledger is the store: every row once, the same log head.
        let last = try FollowTests.pass(setup.follow())
        #expect(last["logHead"] == .string(setup.backend.script.head), "\(last)")
        #expect(last["logSize"] == .integer(setup.backend.script.size))
        let again = try FollowTests.pass(setup.follow())
        #expect(FollowTests.commits(again) == 0)
        #expect(FollowTests.count(again, "alreadyImported", "mandates") == Int64(setup.backend.devices))
        let verified = CLI.run(["verify", setup.scenario.ledger, "--trust", setup.scenario.signer + ".pub", "--json"])
        #expect(verified.status == 0, "\(verified.stdout)")
        let summary = try CanonicalJSON.parse(Array(verified.stdout.utf8))["summary"]?.objectValue
        let records = summary?["records"]?.objectValue
        #expect(records?["mandate"] == .integer(Int64(setup.backend.devices)))
        #expect(records?["verdict"] == .integer(Int64(setup.backend.devices + setup.backend.devices / 3)))
        print(
            "follow-crash: \(kills.count) kills (seed \(seed)), \(landed) landed mid-pass; \(setup.backend.devices) devices, log \(setup.backend.script.size) entries, head equal"
        )
    }
}
