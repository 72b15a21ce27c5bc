import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier

/// A verdict the vendor stored although it fails validation at its receipt time is reported (conduct,
/// VerdictValidationPolicy) and is not executed by the replay: the reference refuses it at intake, so the
/// rules give what the valid verdicts give (docs/DECISIONS.md, "Stored invalid verdicts are not executed").
@Suite("Stored invalid verdicts are not executed")
struct InvalidVerdictReplayTests {
    @Test func aWriteThatFollowsAStoredInvalidVerdictIsUnauthorized() throws {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let surgeon = try Surgeon(path: ledger, keys: [FixtureLedger.signer1, FixtureLedger.signer2])
        // The ban of device 1 again, re-signed with a banExpires its class's term does not give: invalid.
        var object = surgeon.json(TamperCorpus.verdictPath(1))
        object.set("banExpires", .string("2030-01-01T00:00:00Z"))
        let resigned = FixtureLedger.authority.sign(object)
        let invalid = try Verdict(json: resigned)
        let receipt = VerdictReceipt(
            verdictRef: invalid.ref, status: .queued, receivedAt: Instant.parse("2026-08-12T02:00:30Z")!)
        TamperCorpus.add(
            surgeon,
            [
                (TamperCorpus.newRecordPath(Verdict.self, invalid.ref), CanonicalJSON.encode(resigned)),
                (TamperCorpus.newRecordPath(VerdictReceipt.self, invalid.ref), CanonicalJSON.encode(receipt.json)),
            ])
        // The vendor then writes device 1's bits as if the invalid ban governed.
        TamperCorpus.appendEntries(surgeon) { last in
            [
                TamperCorpus.write(
                    7, after: last, binding: FixtureLedger.bindings[1], by: invalid.ref.hex, caseOpen: false,
                    banned: true, at: "2026-08-12T02:01:30Z")
            ]
        }
        let result = TamperCorpusTests.verify(ledger)
        #expect(result.status == 2, "\(result.report) \(result.stderr)")
        let findings = result.report["findings"] as? [[String: Any]] ?? []
        #expect(
            findings.contains {
                $0["policy"] as? String == "VerdictValidationPolicy" && $0["kind"] as? String == "conduct"
            })
        let replay = try #require(findings.first { $0["policy"] as? String == "WriteReplayPolicy" }, "\(findings)")
        let write = try #require(replay["write"] as? [String: Any])
        // The valid ban still governs: the rules give 10 by the original ban, not by the invalid one.
        #expect(write["rulesGive"] as? String == "10 by \(TamperCorpus.verdicts[1].ref.hex)")
    }
}
