import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore

/// Time travel: the lies the vendor's own tools could write are refused by `append` (and
/// `keys rotate`) under the very name `verify` gives them — one rule (``TimeWindow``), two callers.
@Suite("Time order: the writer refuses what the verifier rejects")
struct TimeOrderTests {
    @Test func backdatedBatchesAndRecordsAreRefusedWithTheVerifiersPolicyName() {
        let scenario = LedgerScenario()
        scenario.append([scenario.file(scenario.mandate())], at: "2026-08-09T00:00:00Z")
        let tip = scenario.tip
        let write = scenario.writeRequests([
            ("2026-08-09T00:00:00Z", "enrollment:device-1", "reconciliation", false, false, "ok")
        ])
        let cases: [(name: String, arguments: [String])] = [
            ("a batch dated before the tip", ["append", scenario.ledger, "--at", "2026-08-08T00:00:00Z", write]),
            ("a batch dated 1970", ["append", scenario.ledger, "--at", "1970-01-01T00:00:00Z", write]),
            (
                "a write dated before the tip",
                [
                    "append", scenario.ledger, "--at", "2026-08-10T00:00:00Z",
                    scenario.writeRequests([
                        ("2026-08-08T23:00:00Z", "enrollment:device-1", "reconciliation", false, false, "ok")
                    ]),
                ]
            ),
            (
                "a write dated after its batch",
                [
                    "append", scenario.ledger, "--at", "2026-08-10T00:00:00Z",
                    scenario.writeRequests([
                        ("2027-06-01T00:00:00Z", "enrollment:device-1", "expiry", false, false, "ok")
                    ]),
                ]
            ),
            (
                "a rotation backdated months",
                ["keys", "rotate", scenario.ledger, "--at", "2026-03-01T00:00:00Z", "--add", scenario.signer + ".pub"]
            ),
        ]
        for (name, arguments) in cases {
            let result = CLI.run(arguments + ["--signing-key", scenario.signer])
            #expect(result.status == 65, "\(name): \(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains(TimeWindow.ruleName), "\(name): \(result.stderr)")
            #expect(scenario.tip == tip, "\(name) changed the ledger")
        }
        // At the tip's own second, and inside the window: accepted.
        scenario.append([write], at: "2026-08-09T00:00:00Z")
    }

    @Test(
        arguments: [
            ("2026-08-10T00:00:00Z", "2026-08-10T00:00:00Z", nil),
            ("2026-08-10T00:00:00Z", "2026-08-09T00:00:00Z", nil),
            ("2026-08-10T00:00:00Z", "2026-08-08T23:59:59Z", "before the previous commit"),
            ("2026-08-10T00:00:00Z", "2026-08-10T00:00:01Z", "after its commit"),
            ("2026-08-10T00:00:00Z", "2026-08-10T00:00:00.5Z", nil),
        ] as [(String, String, String?)])
    func windowBoundsAreInclusiveInWholeSeconds(commit: String, recorded: String, violation: String?) {
        let window = TimeWindow.Window(
            parentTime: Instant.parse("2026-08-09T00:00:00Z")!.seconds, commitTime: Instant.parse(commit)!.seconds)
        let reasons = TimeWindow.violations([.init("recordedAt", Instant.parse(recorded)!, .vendorEvent)], in: window)
        if let violation {
            #expect(reasons.count == 1 && reasons[0].contains(violation), "\(reasons)")
        } else {
            #expect(reasons.isEmpty, "\(reasons)")
        }
    }

    @Test func timesStatedElsewhereMayRunAheadByTheReferenceSkewOnly() {
        let window = TimeWindow.Window(parentTime: 100, commitTime: 1_000)
        #expect(
            TimeWindow.violations([.init("acceptedAt", Instant(seconds: 1_300), .statedElsewhere)], in: window).isEmpty)
        #expect(
            TimeWindow.violations([.init("acceptedAt", Instant(seconds: 1_301), .statedElsewhere)], in: window).count
                == 1)
        #expect(TimeWindow.violations([.init("acceptedAt", Instant(seconds: 0), .statedElsewhere)], in: window).isEmpty)
        #expect(TimeWindow.commitViolation(.init(parentTime: 1_000, commitTime: 999)) != nil)
        #expect(TimeWindow.commitViolation(.init(parentTime: 1_000, commitTime: 1_000)) == nil)
    }
}
