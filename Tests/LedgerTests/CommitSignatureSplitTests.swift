import Foundation
import LedgerStore
import Testing

@testable import LedgerFormat

/// The commit signature split the verifier and the writer read signatures with, checked against
/// libgit2's `git_commit_extract_signature` (an implementation we did not write) on every commit of the
/// example ledger, and on the edges where the two must not be confused.
@Suite("Commit signature split")
struct CommitSignatureSplitTests {
    @Test func agreesWithLibgit2OnEveryCommitOfTheExampleLedger() throws {
        let repository = try Repository.open(ExampleLedgerTests.example.appendingPathComponent("ledger.git").path)
        let tip = try #require(try repository.referenceTarget(LedgerLayout.branch))
        let commits = try repository.history(from: tip)
        #expect(commits.count > 300)
        for id in commits {
            let libgit2 = try #require(try repository.extractSignature(id))
            let split = CommitSignatureSplit.split(try repository.rawCommit(id))
            #expect(split == .signed(signature: libgit2.signature, signedData: libgit2.signedData), "\(id.hex)")
        }
    }

    @Test(arguments: [
        // No gpgsig header.
        ("tree t\nauthor a\n\nmessage\n", CommitSignatureSplit.Result.unsigned),
        // A message line that looks like a header is the message, not a signature (git stops at the
        // header's end; libgit2 1.5 would read it).
        ("tree t\n\ngpgsig not-a-signature\n", .unsigned),
        // A gpgsig-sha256 header is not the gpgsig header.
        ("tree t\ngpgsig-sha256 x\n\nm\n", .unsigned),
        // Continuation lines lose their leading space and join with newlines; the rest is the payload.
        (
            "tree t\ngpgsig -----BEGIN\n line\n -----END\ncommitter c\n\nm\n",
            .signed(signature: "-----BEGIN\nline\n-----END", signedData: Array("tree t\ncommitter c\n\nm\n".utf8))
        ),
        // Cut off inside the signature's continuation.
        ("tree t\ngpgsig a\n b", .malformed),
    ])
    func edges(_ raw: String, _ expected: CommitSignatureSplit.Result) {
        #expect(CommitSignatureSplit.split(Array(raw.utf8)) == expected)
    }
}
