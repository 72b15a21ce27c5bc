import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier
@testable import LedgerWriter

/// docs/DECISIONS.md "The retry contract", a rule of the verifier as of the writer: an
/// `Onym-Ledger-Idempotency-Key` names one batch among the last 256 commits (`LogTrailerPolicy`), and an
/// incremental run remembers the window in the auditor's state (`replay.state`) or reads it again.
@Suite("The retry contract: a key names one batch, for the verifier too")
struct RetryContractTests {
    /// The window ends at the parent: a key the commit 256 before carried is in it, one 257 before is not.
    @Test func theWindowIsTheWritersAndSurvivesTheReplayStateFile() throws {
        var window = RecentIdempotencyKeys()
        window.advance("req-1")
        for _ in 1..<LedgerTrailers.retryWindow { window.advance(nil) }
        #expect(LedgerTrailers.retryWindow == 256)
        #expect(window.distance(of: "req-1") == 256)
        window.advance("req-2")
        #expect(window.distance(of: "req-1") == nil)
        #expect(window.distance(of: "req-2") == 1)
        #expect(window.slots.count == 256)
        var state = ReplayState(trustRoot: TrustRoot(), now: Instant(seconds: 0))
        state.maps.recentIdempotencyKeys = window
        let tip = ObjectID(rawBytes: [UInt8](repeating: 9, count: 20))!
        let bytes = state.maps.smallFileBytes(tip: tip)
        #expect(ReplayMaps(smallFile: bytes, tip: tip)?.recentIdempotencyKeys == window)
    }

    /// A commit that logs a keyed call again after the auditor's remembered tip: the incremental run catches
    /// it from the remembered window, and again when `replay.state` is lost and the window is read back.
    @Test func aKeyReusedAfterTheRememberedTipIsCaughtByAnIncrementalRun() throws {
        let scenario = LedgerScenario()
        scenario.append([scenario.file(scenario.mandate())], at: "2026-08-09T00:00:00Z")
        let at = "2026-08-10T00:00:00Z"
        let writes = scenario.writeRequests([(at, "enrollment:device-1", "reconciliation", false, false, "ok")])
        let keyed = CLI.run([
            "append", scenario.ledger, "--signing-key", scenario.signer, "--at", at, "--idempotency-key", "req-42",
            writes,
        ])
        #expect(keyed.status == 0, "\(keyed.stderr)")
        let state = scenario.scratch.path("auditor-state")
        func verify() -> (status: Int32, stdout: String, stderr: String) {
            CLI.run([
                "verify", scenario.ledger, "--trust", scenario.signer + ".pub", "--state", state, "--at",
                "2026-09-01T00:00:00Z",
            ])
        }
        #expect(verify().status == 0)
        // A writer that skipped the retry check logs the same call again, under the same key.
        let surgeon = try Surgeon(path: scenario.ledger, keys: [FixtureLedger.signer1])
        let first = try WriteLogEntry(json: surgeon.json(LedgerLayout.logEntryPath(1)))
        let again = try WriteLogEntry(
            sequence: 2, recordedAt: first.recordedAtText, deviceBinding: first.deviceBinding,
            authorizedBy: first.authorizedBy, caseOpen: first.caseOpen, banned: first.banned, outcome: first.outcome,
            previousHash: first.entryHash)
        let trailers = LedgerTrailers(
            logSize: 2, logHead: again.entryHash, writesDigest: WriteRequest.digest([WriteRequest(of: again)]),
            idempotencyKey: "req-42")
        surgeon.append(
            [.upsert(path: LedgerLayout.logEntryPath(2), id: surgeon.blob(again.json), mode: 0o100644)],
            message: "append: 1 write-log entry\n\n" + trailers.text, time: surgeon.info(surgeon.tip).time)
        let remembered = verify()
        #expect(remembered.status == 1, "\(remembered.stdout) \(remembered.stderr)")
        #expect(remembered.stdout.contains("LogTrailerPolicy") && remembered.stdout.contains("req-42"))
        let files = FileManager.default.enumerator(atPath: state)?.allObjects.compactMap { $0 as? String } ?? []
        let replayState = try #require(files.first { $0.hasSuffix("/replay.state") })
        try FileManager.default.removeItem(atPath: state + "/" + replayState)
        let readBack = verify()
        #expect(readBack.status == 1, "\(readBack.stdout) \(readBack.stderr)")
        #expect(readBack.stdout.contains("LogTrailerPolicy") && readBack.stdout.contains("req-42"))
    }
}
