import Foundation
import Testing

/// `ledger-bench` (Sources/LedgerBench), what `benchmarks/run` generates its ledgers with: bad input is a
/// message and a documented exit code, never a crash.
@Suite("The benchmark tool: bad input is a message and an exit code")
struct BenchToolTests {
    static let tool = Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("LedgerBench").path

    /// A ledger already at `--out` is exit 1 naming it (it was a fatal error with a backtrace, signal 4).
    @Test func generatingOverALedgerIsAnErrorNamingIt() {
        let scratch = ScratchDirectory()
        let out = scratch.path("ledger")
        let first = runProcess(Self.tool, ["generate", "--entries", "10", "--out", out])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("generate entries=10 "))
        let again = runProcess(Self.tool, ["generate", "--entries", "10", "--out", out])
        #expect(again.status == 1, "\(again.stderr)")
        #expect(again.stderr.contains("a ledger already exists here"), "\(again.stderr)")
        #expect(!again.stderr.contains("Fatal error"), "\(again.stderr)")
    }

    /// A count that is not a positive whole number, or a missing `--out`, is a usage error (64).
    @Test func badArgumentsAreUsageErrors() {
        let scratch = ScratchDirectory()
        for arguments in [
            ["generate", "--entries", "ten", "--out", scratch.path("a")],
            ["generate", "--entries", "0", "--out", scratch.path("b")],
            ["generate", "--entries", "10"],
            ["floor", "--signatures", "5"],
            ["floor", "--signatures", "-1", "--bytes", "10"],
            ["nothing"],
        ] {
            let result = runProcess(Self.tool, arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("ledger-bench: ") || result.stderr.hasPrefix("usage: "), "\(result.stderr)")
        }
    }
}
