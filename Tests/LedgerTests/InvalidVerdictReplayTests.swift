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
        // The ban of device 1 again, re-signed with a banExpires its class's term does not give (invalid), and a
        // write of device 1's bits as if it governed.
        let attack = try #require(TamperCorpus.attacks.first { $0.conformance == "InvalidVerdictNotExecuted" })
        attack.mutate(surgeon)
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
