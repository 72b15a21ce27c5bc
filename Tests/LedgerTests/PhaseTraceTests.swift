import Foundation
import Testing

@testable import LedgerStore

/// `ONYM_LEDGER_TRACE=1` prints where an append's time goes, phase by phase, to the microsecond: how
/// BENCHMARKS.md's writer profiles are taken, so every phase it names must be in the trace.
@Suite("Trace: the writer's phases, to the microsecond")
struct PhaseTraceTests {
    @Test func millisecondsAreWrittenWithThreeDecimals() {
        #expect(PhaseClock.milliseconds(0) == "0.000")
        #expect(PhaseClock.milliseconds(0.000_000_4) == "0.000")
        #expect(PhaseClock.milliseconds(0.000_001) == "0.001")
        #expect(PhaseClock.milliseconds(0.012_345_6) == "12.346")
        #expect(PhaseClock.milliseconds(0.1) == "100.000")
        #expect(PhaseClock.milliseconds(1.5) == "1500.000")
        #expect(PhaseClock.milliseconds(-1) == "0.000")
    }

    @Test func anAppendTracesEveryPhaseOnce() throws {
        let scenario = LedgerScenario()
        let result = CLI.run(
            [
                "append", scenario.ledger, "--signing-key", scenario.signer, "--at", "2026-08-09T00:00:00Z",
                scenario.file(scenario.mandate()),
            ], environment: ["ONYM_LEDGER_TRACE": "1"])
        #expect(result.status == 0, "\(result.stderr)")
        let phases = [
            "open", "plan", "checkpoint", "blobs", "tree", "commit", "judge", "pack", "reference", "apply",
            "merge packs",
        ]
        let lines = result.stderr.split(separator: "\n").map(String.init)
        for phase in phases {
            let traced = lines.filter { line in
                guard line.hasPrefix("trace: \(phase) ") else { return false }
                let rest = line.dropFirst("trace: \(phase) ".count).split(separator: " ")
                return rest.count == 6 && rest[1] == "ms" && rest[2] == "(thread" && rest[3] == "CPU"
                    && rest[5] == "ms)"
                    && Self.isMilliseconds(rest[0]) && Self.isMilliseconds(rest[4])
            }
            #expect(traced.count == 1, "\(phase): \(result.stderr)")
        }
    }

    private static func isMilliseconds(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].count == 3
            && parts.allSatisfy { $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }
}
