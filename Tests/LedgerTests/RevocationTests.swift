import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerWriter

/// Designation revocation end to end: trigger records and determinations are appended, refused when
/// unjustified, verified, and replayed — marks clear from the effective time.
@Suite("Designation revocation")
struct RevocationTests {
    /// A scenario with one banned and one case-open device under the default (self-appellate) authority.
    func scenario() throws -> (LedgerScenario, ban: Verdict) {
        let scenario = LedgerScenario()
        let first = try Mandate(json: scenario.mandate(binding: "enrollment:device-1"))
        let second = try Mandate(json: scenario.mandate(binding: "enrollment:device-2"))
        scenario.append(
            [
                scenario.file(scenario.authority.manifestBytes, name: "manifest.json"), scenario.file(first.json),
                scenario.file(second.json),
            ], at: "2026-08-09T00:00:00Z")
        let ban = FixtureRecords.verdict(
            .ban, caseId: "case-ban", mandate: first, authority: scenario.authority,
            classId: "csam", decidedAt: "2026-08-10T00:00:00Z")
        let open = FixtureRecords.verdict(
            .openCase, caseId: "case-open", mandate: second, authority: scenario.authority,
            classId: "unsolicited-pornography", decidedAt: "2026-08-10T00:00:00Z")
        scenario.append(
            [
                scenario.file(FixtureRecords.submission(ban, authority: scenario.authority)),
                scenario.file(FixtureRecords.submission(open, authority: scenario.authority)),
            ], at: "2026-08-10T00:05:00Z")
        return (scenario, try Verdict(json: ban))
    }

    @Test func compromiseReportJustifiesARevocationThatClearsMarks() throws {
        let (scenario, ban) = try scenario()
        let authority = scenario.authority.componentId
        let unjustified = FixtureRecords.revocation(
            interface: scenario.interface, authority: authority,
            trigger: "authority-compromise", effectiveAt: "2026-08-11T00:00:00Z", determinedAt: "2026-08-12T00:00:00Z",
            evidence: [ContentAddress(hashing: [9])])
        let refused = scenario.append([scenario.file(unjustified)], at: "2026-08-12T00:00:00Z", expect: 65)
        #expect(refused.stderr.contains("RevocationPolicy: unjustified revocation"))

        // The device's ban is written while the ban stands (a batch of its own, before the report arrives).
        scenario.append(
            [scenario.writeRequests([("2026-08-11T05:00:00Z", "enrollment:device-1", ban.ref.hex, false, true, "ok")])],
            at: "2026-08-11T05:00:00Z")
        let report = FixtureRecords.compromiseReport(
            authority: scenario.authority, compromisedAt: "2026-08-11T00:00:00Z",
            reportedAt: "2026-08-11T06:00:00Z")
        let wrongTime = FixtureRecords.revocation(
            interface: scenario.interface, authority: authority,
            trigger: "authority-compromise", effectiveAt: "2026-08-11T06:00:00Z", determinedAt: "2026-08-12T00:00:00Z",
            evidence: [try CompromiseReport(json: report).ref])
        #expect(
            scenario.append([scenario.file(report), scenario.file(wrongTime)], at: "2026-08-12T00:00:00Z", expect: 65)
                .stderr.contains("compromise time"))
        let revocation = FixtureRecords.revocation(
            interface: scenario.interface, authority: authority,
            trigger: "authority-compromise", effectiveAt: "2026-08-11T00:00:00Z", determinedAt: "2026-08-12T00:00:00Z",
            evidence: [try CompromiseReport(json: report).ref])
        scenario.append([scenario.file(report), scenario.file(revocation)], at: "2026-08-12T00:00:00Z")

        // Before the determination the ban holds; after it, no forum survives (appellate "self"): clear.
        let trust = scenario.signer + ".pub"
        let before = CLI.run([
            "gate", scenario.ledger, "--binding", "enrollment:device-1", "--at", "2026-08-11T12:00:00Z", "--trust",
            trust,
        ])
        #expect(before.stdout.hasPrefix(#"{"banned":"#), "\(before.stdout)\(before.stderr)")
        let after = CLI.run([
            "gate", scenario.ledger, "--binding", "enrollment:device-1", "--at", "2026-08-12T00:00:00Z", "--trust",
            trust,
        ])
        #expect(after.stdout.hasPrefix(#"{"clear":{}}"#))
        #expect(after.stdout.contains("designation revocation"))
        let reconcile = CLI.run([
            "reconcile", scenario.ledger, "--at", "2026-08-12T00:00:00Z", "--all", "--trust", trust,
        ])
        #expect(reconcile.stdout.contains("designation-revocation"))

        // Writes authorized by the rule replay cleanly; a ban rewritten after it does not.
        scenario.append(
            [
                scenario.writeRequests([
                    ("2026-08-12T01:00:00Z", "enrollment:device-1", "designation-revocation", false, false, "ok"),
                    ("2026-08-12T01:00:01Z", "enrollment:device-2", "designation-revocation", false, false, "ok"),
                ])
            ], at: "2026-08-12T02:00:00Z")
        let verified = CLI.run(["verify", scenario.ledger, "--trust", trust, "--at", "2026-09-01T00:00:00Z"])
        #expect(verified.status == 0, "\(verified.stdout)")
        scenario.append(
            [scenario.writeRequests([("2026-08-12T03:00:00Z", "enrollment:device-1", ban.ref.hex, false, true, "ok")])],
            at: "2026-08-12T04:00:00Z")
        // An unauthorized write, honestly logged: authentic, with a conduct finding (exit 2).
        let flagged = CLI.run(["verify", scenario.ledger, "--trust", trust, "--at", "2026-09-01T00:00:00Z"])
        #expect(flagged.status == 2)
        #expect(flagged.stdout.contains("WriteReplayPolicy"))
    }

    /// Trigger 2: unanswered signed status attempts spanning twice the longest decision deadline (P14D → 28 days).
    @Test func unansweredAttemptsJustifyARevocationOnlyAcrossTheWholeWindow() throws {
        let (scenario, _) = try scenario()
        let authority = scenario.authority.componentId
        func attempt(_ at: String, answered: String? = nil) -> JSONObject {
            FixtureRecords.statusAttempt(
                interface: scenario.interface, authority: authority, attemptedAt: at, answeredAt: answered)
        }
        let first = attempt("2026-08-11T00:00:00Z")
        let tooSoon = attempt("2026-09-07T00:00:00Z")
        let last = attempt("2026-09-08T00:00:00Z")
        func revocation(_ evidence: [JSONObject], effective: String = "2026-09-08T00:00:00Z") -> JSONObject {
            FixtureRecords.revocation(
                interface: scenario.interface, authority: authority, trigger: "unreachable",
                effectiveAt: effective, determinedAt: "2026-09-08T01:00:00Z",
                evidence: evidence.map { try! StatusAttempt(json: $0).ref })
        }
        scenario.append(
            [scenario.file(first), scenario.file(tooSoon), scenario.file(last)], at: "2026-09-08T00:30:00Z")
        #expect(
            scenario.append(
                [scenario.file(revocation([first, tooSoon], effective: "2026-09-07T00:00:00Z"))],
                at: "2026-09-08T02:00:00Z", expect: 65
            ).stderr.contains("unreachability window"))
        // A stranger's attempt is refused outright.
        var forged = attempt("2026-08-20T00:00:00Z")
        forged = FixtureRecords.signed(forged, with: Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x55))!)
        #expect(
            scenario.append([scenario.file(forged)], at: "2026-09-08T02:00:00Z", expect: 65).stderr.contains(
                "RevocationPolicy: the signature is invalid"))
        scenario.append([scenario.file(revocation([first, last]))], at: "2026-09-08T02:00:00Z")
        #expect(
            CLI.run(["verify", scenario.ledger, "--trust", scenario.signer + ".pub", "--at", "2026-09-09T00:00:00Z"])
                .status == 0)

        // An answered attempt inside the window makes the same evidence insufficient.
        let (other, _) = try self.scenario()
        other.append(
            [
                other.file(first), other.file(attempt("2026-08-20T00:00:00Z", answered: "2026-08-20T00:05:00Z")),
                other.file(last),
            ], at: "2026-09-08T00:30:00Z")
        #expect(
            other.append([other.file(revocation([first, last]))], at: "2026-09-08T02:00:00Z", expect: 65)
                .stderr.contains("was answered"))
    }
}
