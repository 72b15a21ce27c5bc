import LedgerTestSupport
import Testing

@testable import LedgerFormat

/// One signed record of every stored kind — and of each kind's variants that read differently (a verdict
/// of each disposition, both grant types, both redemption types) — built with the reference's
/// construction rules, for the readings' tests.
enum ReadingFixtures {
    struct Fixture: CustomTestStringConvertible, Sendable {
        let name: String
        let kind: any StoredRecord.Type
        let bytes: [UInt8]
        var testDescription: String { name }
    }

    static let authority = FixtureAuthority()
    static let interface = FixtureInterface()
    static let user = Ed25519.PrivateKey(seed: FixtureSeed.labelled("reading-user"))!
    static let caseId = "case-6b7f3d0e-1c2a-4e5b-9f80-1a2b3c4d5e6f"

    static var mandateJSON: JSONObject {
        FixtureRecords.mandate(
            user: user, interface: interface, authority: authority, classes: ["csam", "credible-violence"],
            deviceBinding: "enrollment:device-0", acceptedAt: "2026-08-02T09:30:00Z")
    }

    static func verdictJSON(_ disposition: FixtureRecords.Disposition) -> JSONObject {
        let mandate = try! Mandate(json: mandateJSON)
        let extra: [(String, JSONValue)] =
            disposition == .ban
            ? [
                ("appealUrl", .string("https://authority.example/appeal")),
                ("newHolderUrl", .string("https://authority.example/new-holder")),
                ("authorityContact", .string("moderation@authority.example")),
            ] : []
        return FixtureRecords.verdict(
            disposition, caseId: caseId, mandate: mandate, authority: authority, classId: "csam",
            decidedAt: "2026-08-05T12:00:00Z", reasoning: "Reported image matched a known hash; see the case file.",
            extra: extra)
    }

    static var grantJSON: JSONObject { grantJSON("onym-recovery-grant-v1") }

    static func grantJSON(_ type: String) -> JSONObject {
        FixtureRecords.grant(
            type, caseId: caseId, grantee: user.publicKey.onymKey, authority: authority,
            issuedAt: "2026-08-20T08:00:00Z")
    }

    static var all: [Fixture] {
        let mandate = try! Mandate(json: mandateJSON)
        let ban = try! Verdict(json: verdictJSON(.ban))
        let attempt = FixtureRecords.statusAttempt(
            interface: interface, authority: authority.componentId, attemptedAt: "2026-09-01T00:00:00Z")
        let report = FixtureRecords.compromiseReport(
            authority: authority, compromisedAt: "2026-08-30T22:15:00Z", reportedAt: "2026-09-01T06:00:00Z")
        let evidence = [try! CompromiseReport(json: report).ref, try! StatusAttempt(json: attempt).ref]
        let revocation = FixtureRecords.revocation(
            interface: interface, authority: authority.componentId, trigger: "authority-compromise",
            effectiveAt: "2026-08-30T22:15:00Z", determinedAt: "2026-09-01T07:00:00Z", evidence: evidence)
        let unban = grantJSON("onym-unban-grant-v1")
        func fixture(_ name: String, _ kind: any StoredRecord.Type, _ json: JSONObject) -> Fixture {
            Fixture(name: name, kind: kind, bytes: CanonicalJSON.encode(json))
        }
        return [
            fixture("profile", EnforcementProfile.self, FixtureProfile.appleDeviceCheck),
            Fixture(name: "manifest", kind: AuthorityManifest.self, bytes: authority.manifestBytes),
            fixture("mandate", Mandate.self, mandateJSON),
            fixture("verdict open-case", Verdict.self, verdictJSON(.openCase)),
            fixture("verdict ban", Verdict.self, verdictJSON(.ban)),
            fixture("verdict dismiss", Verdict.self, verdictJSON(.dismiss)),
            fixture(
                "receipt", VerdictReceipt.self,
                VerdictReceipt(verdictRef: ban.ref, status: .queued, receivedAt: Instant.parse("2026-08-05T12:00:04Z")!)
                    .json),
            fixture(
                "status attempt answered", StatusAttempt.self,
                FixtureRecords.statusAttempt(
                    interface: interface, authority: authority.componentId, attemptedAt: "2026-08-31T00:00:00Z",
                    answeredAt: "2026-08-31T00:00:02Z")),
            fixture("status attempt unanswered", StatusAttempt.self, attempt),
            fixture("compromise report", CompromiseReport.self, report),
            fixture("revocation", RevocationDetermination.self, revocation),
            fixture("grant recovery", Grant.self, grantJSON),
            fixture("grant unban", Grant.self, unban),
            fixture(
                "redemption recovery", Redemption.self,
                FixtureRecords.redemption(
                    of: grantJSON, mandateRef: mandate.ref, from: "enrollment:device-0", to: "enrollment:device-1",
                    redeemedAt: "2026-08-21T10:00:00Z")),
            fixture(
                "redemption unban", Redemption.self,
                FixtureRecords.redemption(
                    of: unban, mandateRef: mandate.ref, from: "enrollment:device-0", to: nil,
                    redeemedAt: "2026-08-21T10:00:00Z")),
        ]
    }
}
