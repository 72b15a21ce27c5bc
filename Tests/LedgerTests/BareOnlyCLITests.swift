import Foundation
import Testing

/// A ledger is a bare repository (docs/DECISIONS.md "Bare repositories only"): every writer refuses a
/// repository with a work tree before it takes the writer lock, and leaves nothing behind in it.
@Suite("Writers refuse a repository with a work tree")
struct BareOnlyCLITests {
    @Test func appendKeysRotateAndRepackRefuseAClone() throws {
        let scenario = LedgerScenario()
        let clone = scenario.scratch.path("clone")
        #expect(runProcess("git", ["clone", "--quiet", scenario.ledger, clone]).status == 0)
        let next = scenario.scratch.path("next")
        #expect(CLI.run(["keygen", "--out", next, "--seed", String(repeating: "02", count: 32)]).status == 0)
        let before = try FileManager.default.subpathsOfDirectory(atPath: clone + "/.git").sorted()
        let mandate = scenario.file(scenario.mandate())
        for command in [
            ["append", clone, "--signing-key", scenario.signer, "--at", "2026-08-10T00:00:00Z", mandate],
            ["keys", "rotate", clone, "--signing-key", scenario.signer, "--add", next + ".pub"],
            ["repack", clone],
        ] {
            let refused = CLI.run(command)
            #expect(refused.status == 65, "\(command[0]): \(refused.stderr)")
            #expect(refused.stderr.contains("a ledger is a bare repository"), "\(command[0]): \(refused.stderr)")
            #expect(try FileManager.default.subpathsOfDirectory(atPath: clone + "/.git").sorted() == before)
        }
    }
}
