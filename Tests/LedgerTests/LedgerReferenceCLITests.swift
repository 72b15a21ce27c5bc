import Foundation
import Testing

import LedgerStore

/// `show` and `prove` find what a reference names (``LedgerReference``, README's verb table): a content
/// address finds the record whose content it addresses, never a file merely named by it (a receipt is named
/// by its verdict, docs/FORMAT.md "Paths"); `KIND:HEX` chooses; an ambiguous prefix is refused with its
/// candidates.
@Suite("References: show and prove find the record a content address names")
struct LedgerReferenceCLITests {
    /// The tip's files under `batches/`, from stock git.
    static func batchPaths(_ ledger: String) -> [String] {
        runProcess("git", ["--git-dir", ledger, "ls-tree", "-r", "--name-only", "refs/heads/main", "batches"])
            .stdout.split(separator: "\n").map(String.init)
    }

    /// A file's bytes at the tip, as stock git reads them.
    static func gitShow(_ ledger: String, _ path: String) -> String {
        runProcess("git", ["--git-dir", ledger, "show", "refs/heads/main:\(path)"]).stdout
    }

    /// A verdict of the example ledger that has a receipt: its ref and both paths.
    static func receiptedVerdict(_ ledger: String) throws -> (ref: String, verdict: String, receipt: String) {
        let paths = batchPaths(ledger)
        let receipt = try #require(paths.first { $0.contains("/receipts/") })
        let ref = String(receipt.split(separator: "/").last!.prefix(64))
        let verdict = try #require(paths.first { $0.contains("/verdicts/") && $0.hasSuffix("/\(ref).json") })
        return (ref, verdict, receipt)
    }

    @Test func aVerdictsAddressProvesTheVerdictNotItsReceipt() throws {
        let scratch = ScratchDirectory()
        let ledger = ExampleLedgerTests.copy(scratch)
        let (ref, verdictPath, _) = try Self.receiptedVerdict(ledger)
        let proved = CLI.run(["prove", ledger, ref, "--trust", ExampleLedgerTests.trust, "--state", scratch.path("s")])
        #expect(proved.status == 0, "\(proved.stderr)")
        let proof = scratch.path("verdict.tlog-proof")
        try proved.stdout.write(toFile: proof, atomically: true, encoding: .utf8)
        let verdict = scratch.path("verdict.json")
        try Self.gitShow(ledger, verdictPath).write(toFile: verdict, atomically: true, encoding: .utf8)
        let checked = CLI.run(["check-proof", proof, "--log-key", try TransparencyLedgerTests.logKey(ledger), verdict])
        #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
        #expect(checked.stdout.contains("PROVEN"))
        #expect(checked.stdout.contains(verdictPath))
    }

    @Test func aKindChoosesAndABareAddressIsTheRecordItAddresses() throws {
        let scratch = ScratchDirectory()
        let ledger = ExampleLedgerTests.copy(scratch)
        let (ref, verdictPath, receiptPath) = try Self.receiptedVerdict(ledger)
        let verdict = Self.gitShow(ledger, verdictPath) + "\n"
        let receipt = Self.gitShow(ledger, receiptPath) + "\n"
        for name in [ref, String(ref.prefix(12)), "verdict:\(ref)", "verdict:\(ref.prefix(12))"] {
            let shown = CLI.run(["show", ledger, name])
            #expect(shown.status == 0, "\(name): \(shown.stderr)")
            #expect(shown.stdout == verdict, "\(name)")
            #expect(shown.stderr.contains(verdictPath), "\(name)")
        }
        for name in ["receipt:\(ref)", "receipt:\(ref.prefix(12).uppercased())"] {
            let shown = CLI.run(["show", ledger, name])
            #expect(shown.status == 0, "\(name): \(shown.stderr)")
            #expect(shown.stdout == receipt, "\(name)")
        }
        // A kind that stores nothing under that name finds nothing (65); a kind that is none is refused (64).
        #expect(CLI.run(["show", ledger, "mandate:\(ref)"]).status == 65)
        let unknown = CLI.run(["show", ledger, "verdicts:\(ref)"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("'verdicts' is not a kind"))
        #expect(CLI.run(["show", ledger, "verdict:xyz"]).status == 64)
        // commit:REV and log:N say which reading they mean.
        let tip = try #require(try Repository.open(ledger).referenceTarget("refs/heads/main"))
        #expect(CLI.run(["show", ledger, "commit:\(tip.hex.prefix(10))"]).stdout.contains("commit \(tip.hex)"))
        #expect(CLI.run(["show", ledger, "log:151"]).stdout.contains(#""sequence":151"#))
    }

    @Test func anAmbiguousPrefixIsRefusedWithItsCandidates() throws {
        let scratch = ScratchDirectory()
        let ledger = ExampleLedgerTests.copy(scratch)
        // Two records (not receipts: those are named by their verdicts) whose addresses share 4 hex digits.
        let named = Self.batchPaths(ledger).filter { !$0.contains("/receipts/") }
        let byPrefix = Dictionary(grouping: named) { $0.split(separator: "/").last!.prefix(4) }
        let (prefix, paths) = try #require(byPrefix.first { $0.value.count >= 2 })
        let audit = ["--trust", ExampleLedgerTests.trust, "--state", scratch.path("s")]
        for command in [["show", ledger, String(prefix)], ["prove", ledger, String(prefix)] + audit] {
            let refused = CLI.run(command)
            #expect(refused.status == 64, "\(command[0]): \(refused.stderr)")
            #expect(refused.stderr.contains("\(prefix) is ambiguous"))
            #expect(refused.stdout.isEmpty)
            for path in paths {
                #expect(refused.stderr.contains(path), "\(path)")
                let kind = path.split(separator: "/")[3].dropLast()  // the folder `verdicts` → kind `verdict`
                #expect(refused.stderr.contains("\(kind) "), "\(kind)")
            }
        }
    }
}
