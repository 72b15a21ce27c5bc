import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier

/// Identity-mediated re-linking after reinstall (profile §10) and unban by grant (onym-wire §3.12,
/// §3.13): grants and their redemptions appended through the writer, verified, and replayed.
@Suite("Grants and redemptions")
struct GrantTests {
    static let old = "enrollment:device-1"
    static let new = "enrollment:device-2"

    /// A banned user on `old`, the ban written; then the user reinstalls and enrolls `new`.
    func bannedThenReinstalled() throws -> (LedgerScenario, ban: Verdict, first: Mandate, second: Mandate) {
        let (scenario, verdict, first) = try banned()
        let second = try Mandate(json: scenario.mandate(binding: Self.new, acceptedAt: "2026-08-12T00:00:00Z"))
        scenario.append([scenario.file(second.json)], at: "2026-08-12T00:00:00Z")
        return (scenario, verdict, first, second)
    }

    /// A banned user on `old`, the ban written.
    func banned() throws -> (LedgerScenario, ban: Verdict, first: Mandate) {
        let scenario = LedgerScenario()
        let first = try Mandate(json: scenario.mandate(binding: Self.old))
        scenario.append(
            [scenario.file(scenario.authority.manifestBytes, name: "manifest.json"), scenario.file(first.json)],
            at: "2026-08-09T00:00:00Z")
        let ban = FixtureRecords.verdict(
            .ban, caseId: "case-ban", mandate: first, authority: scenario.authority, classId: "csam",
            decidedAt: "2026-08-10T00:00:00Z")
        scenario.append(
            [scenario.file(FixtureRecords.submission(ban, authority: scenario.authority))], at: "2026-08-10T00:05:00Z")
        let verdict = try Verdict(json: ban)
        scenario.append(
            [scenario.writeRequests([("2026-08-11T05:00:00Z", Self.old, verdict.ref.hex, false, true, "ok")])],
            at: "2026-08-11T05:00:00Z")
        return (scenario, verdict, first)
    }

    func grant(_ scenario: LedgerScenario, _ type: String, issuedAt: String, caseId: String = "case-ban")
        -> JSONObject
    {
        FixtureRecords.grant(
            type, caseId: caseId, grantee: scenario.user.publicKey.onymKey, authority: scenario.authority,
            issuedAt: issuedAt)
    }

    /// The gate for the grantee (its newest mandate names the new binding).
    func gate(_ scenario: LedgerScenario, at: String) -> String {
        let result = CLI.run([
            "gate", scenario.ledger, "--user", scenario.user.publicKey.onymKey, "--at", at,
            "--trust", scenario.signer + ".pub",
        ])
        return result.stdout + result.stderr
    }

    func verify(_ scenario: LedgerScenario, at: String = "2026-09-01T00:00:00Z") -> (
        status: Int32, stdout: String, stderr: String
    ) {
        CLI.run(["verify", scenario.ledger, "--trust", scenario.signer + ".pub", "--at", at])
    }

    /// Redeems the user's recovery grant for the ban's case (old → new binding) at 02:00; the gate for the
    /// grantee then answers on the new binding: banned by the moved verdict.
    func recoverAndExpectTheBanMoved(_ scenario: LedgerScenario, ban: Verdict, first: Mandate) {
        let recovery = grant(scenario, "onym-recovery-grant-v1", issuedAt: "2026-08-12T01:00:00Z")
        let redeemed = FixtureRecords.redemption(
            of: recovery, mandateRef: first.ref, from: Self.old, to: Self.new, redeemedAt: "2026-08-12T02:00:00Z")
        scenario.append([scenario.file(recovery), scenario.file(redeemed)], at: "2026-08-12T02:00:00Z")
        let moved = gate(scenario, at: "2026-08-12T02:30:00Z")
        #expect(moved.hasPrefix(#"{"banned":"#), "\(moved)")
        #expect(moved.contains(ban.ref.hex))
    }

    @Test func aRecoveryMovesTheBanToTheNewBindingAndAnUnbanEndsIt() throws {
        let (scenario, ban, first, second) = try bannedThenReinstalled()
        // Before the recovery the new binding holds nothing of the case.
        #expect(gate(scenario, at: "2026-08-12T00:30:00Z").hasPrefix(#"{"clear":{}}"#))

        recoverAndExpectTheBanMoved(scenario, ban: ban, first: first)
        // The old binding no longer carries the case.
        let old = CLI.run([
            "gate", scenario.ledger, "--binding", Self.old, "--at", "2026-08-12T02:30:00Z", "--trust",
            scenario.signer + ".pub",
        ])
        #expect(old.stdout.hasPrefix(#"{"clear":{}}"#), "\(old.stdout)\(old.stderr)")
        scenario.append(
            [scenario.writeRequests([("2026-08-12T03:00:00Z", Self.new, ban.ref.hex, false, true, "ok")])],
            at: "2026-08-12T03:00:00Z")

        let unban = grant(scenario, "onym-unban-grant-v1", issuedAt: "2026-08-13T00:00:00Z")
        let unbanned = FixtureRecords.redemption(
            of: unban, mandateRef: second.ref, from: Self.new, to: nil, redeemedAt: "2026-08-13T01:00:00Z")
        scenario.append([scenario.file(unban), scenario.file(unbanned)], at: "2026-08-13T01:00:00Z")
        let unbanRef = try Grant(json: unban).ref
        scenario.append(
            [
                scenario.writeRequests([
                    ("2026-08-13T02:00:00Z", Self.new, "recovery-unban:" + unbanRef.hex, false, false, "ok")
                ])
            ], at: "2026-08-13T02:00:00Z")
        #expect(gate(scenario, at: "2026-08-13T03:00:00Z").hasPrefix(#"{"clear":{}}"#))
        let verified = verify(scenario)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")

        // The DSA export files one restriction for the ban, moved with the recovery, ended by the unban.
        let statements = scenario.scratch.path("statements.jsonl")
        let export = CLI.run([
            "export", "dsa", scenario.ledger, "--trust", scenario.signer + ".pub", "--out", statements,
        ])
        #expect(export.status == 0, "\(export.stdout)\(export.stderr)")
        let exported = try String(contentsOfFile: statements, encoding: .utf8).split(separator: "\n")
        #expect(exported.count == 1)
        #expect(exported.first?.contains(#""end_date_account_restriction":"2026-08-13""#) == true, "\(exported)")
        #expect(exported.first?.contains("unban grant \(unbanRef.hex) was redeemed") == true)

        // The report tells the grant in the new binding's story, and the write it authorized.
        let site = scenario.scratch.path("site")
        let report = CLI.run(["report", scenario.ledger, "--trust", scenario.signer + ".pub", "--out", site])
        #expect(report.status == 0, "\(report.stdout)\(report.stderr)")
        let page = try String(
            contentsOfFile: site + "/bindings/b-" + String(SHA256.hash(Array(Self.new.utf8)).hex.prefix(32)) + ".html",
            encoding: .utf8)
        #expect(page.contains("Grant redeemed") && page.contains("after a reinstall"))
        #expect(page.contains("ended the ban of case"))
        #expect(page.contains("unban grant, redeemed"))
        #expect(!page.contains("Conduct finding"))

        // The state rebuilt from the tree holds both redemptions, and its saved form keeps them.
        let repository = try Repository.open(scenario.ledger)
        let tip = try #require(ObjectID(hexString: scenario.tip))
        let state = try CandidateCommit.rebuiltState(
            at: tip, in: repository, signer: Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x01))!.publicKey,
            now: Instant.parse("2026-09-01T00:00:00Z")!)
        #expect(state.maps.redemptions.map { $0.grantType } == [Grant.GrantType.recovery, .unban])
        #expect(state.maps.redemptions.first?.toBinding == WireString(Self.new))
        #expect(
            ReplayMaps(smallFile: state.maps.smallFileBytes(tip: tip), tip: tip)?.redemptions == state.maps.redemptions)
    }

    /// The reference re-binds the grantee's mandate with the case (onym-wire §5 `recoveries`): the reinstalled
    /// app signs no new mandate. The moved mandate names the new binding for the gate and for a write there
    /// (docs/FORMAT.md "Grants and redemptions": "the fold and the gate for the grantee answer on toBinding").
    @Test func aRecoveryMovesTheMandateWithoutANewOne() throws {
        let (scenario, ban, first) = try banned()
        recoverAndExpectTheBanMoved(scenario, ban: ban, first: first)
        let written = scenario.append(
            [scenario.writeRequests([("2026-08-12T03:00:00Z", Self.new, ban.ref.hex, false, true, "ok")])],
            at: "2026-08-12T03:00:00Z")
        #expect(!written.stderr.contains("conduct finding"), "\(written.stderr)")
        let verified = verify(scenario)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    }

    /// Each misuse of a grant by the vendor is refused by the writer with GrantPolicy's reason.
    @Test(arguments: [
        ("expired", "2026-07-01T00:00:00Z", "onym-recovery-grant-v1", "case-ban", false, "expired 30 days later"),
        ("future", "2026-08-12T02:06:00Z", "onym-recovery-grant-v1", "case-ban", false, "more than 300 s after"),
        ("forged", "2026-08-12T01:00:00Z", "onym-recovery-grant-v1", "case-ban", true, "signature is invalid"),
        ("other case", "2026-08-12T01:00:00Z", "onym-recovery-grant-v1", "case-none", false, "no verdict of case"),
        ("no ban", "2026-08-12T01:00:00Z", "onym-unban-grant-v1", "case-none", false, "no ban of case"),
    ])
    func aMisusedGrantIsRefused(
        name: String, issuedAt: String, type: String, caseId: String, forged: Bool, reason: String
    ) throws {
        let (scenario, _, first, _) = try bannedThenReinstalled()
        let grant = FixtureRecords.grant(
            type, caseId: caseId, grantee: scenario.user.publicKey.onymKey, authority: scenario.authority,
            issuedAt: issuedAt, signer: forged ? Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x55))! : nil)
        let redemption = FixtureRecords.redemption(
            of: grant, mandateRef: first.ref, from: Self.old,
            to: type == "onym-recovery-grant-v1" ? Self.new : nil, redeemedAt: "2026-08-12T02:00:00Z")
        let refused = scenario.append(
            [scenario.file(grant), scenario.file(redemption)], at: "2026-08-12T02:00:00Z", expect: 65)
        #expect(refused.stderr.contains("GrantPolicy: redemption outside the rules"), "\(name): \(refused.stderr)")
        #expect(refused.stderr.contains(reason), "\(name): \(refused.stderr)")
    }

    @Test func aGrantIsRedeemedOnce() throws {
        let (scenario, _, first, second) = try bannedThenReinstalled()
        let recovery = grant(scenario, "onym-recovery-grant-v1", issuedAt: "2026-08-12T01:00:00Z")
        scenario.append(
            [
                scenario.file(recovery),
                scenario.file(
                    FixtureRecords.redemption(
                        of: recovery, mandateRef: first.ref, from: Self.old, to: Self.new,
                        redeemedAt: "2026-08-12T02:00:00Z")),
            ], at: "2026-08-12T02:00:00Z")
        let again = FixtureRecords.redemption(
            of: recovery, mandateRef: second.ref, from: Self.new, to: "enrollment:device-3",
            redeemedAt: "2026-08-12T03:00:00Z")
        let refused = scenario.append([scenario.file(again)], at: "2026-08-12T03:00:00Z", expect: 65)
        #expect(refused.stderr.contains("is single use and was redeemed at"), "\(refused.stderr)")
    }

    /// A write logged against an unban grant the vendor never redeemed is unauthorized (conduct).
    @Test func aWriteByAnUnredeemedGrantIsAConductFinding() throws {
        let (scenario, _, _, _) = try bannedThenReinstalled()
        let unban = grant(scenario, "onym-unban-grant-v1", issuedAt: "2026-08-13T00:00:00Z")
        scenario.append([scenario.file(unban)], at: "2026-08-13T00:00:00Z")
        let label = "recovery-unban:" + (try Grant(json: unban)).ref.hex
        scenario.append(
            [scenario.writeRequests([("2026-08-13T02:00:00Z", Self.old, label, false, false, "ok")])],
            at: "2026-08-13T02:00:00Z")
        let flagged = verify(scenario)
        #expect(flagged.status == 2, "\(flagged.stdout)\(flagged.stderr)")
        #expect(flagged.stdout.contains("WriteReplayPolicy"))
    }

    /// `inspect` shows a grant and leaves its signature to its redemption: a grant names no record, so the
    /// key that signs it is known only from the redemption — the one rule `append` and `verify` run for it
    /// (a grant signed by a stranger is appended alone; its redemption is refused, `aMisusedGrantIsRefused`).
    @Test func inspectShowsAGrantAndLeavesItsSignatureToItsRedemption() throws {
        let scenario = LedgerScenario(initialize: false)
        let grant = grant(scenario, "onym-unban-grant-v1", issuedAt: "2026-08-13T00:00:00Z")
        let path = scenario.file(grant)
        let shown = CLI.run(["inspect", path, "--key", scenario.user.publicKey.onymKey])
        #expect(shown.status == 0, "\(shown.stdout)\(shown.stderr)")
        #expect(shown.stdout.contains("grantType:") && !shown.stdout.contains("GrantPolicy"), "\(shown.stdout)")
        #expect(shown.stdout.contains("its redemption names the key that signs it"), "\(shown.stdout)")
    }
}

@Suite("Recoveries at one instant")
struct SameInstantRecoveryTests {
    static func recovery(_ tag: UInt8, from: WireString, to: WireString, at seconds: Int64 = 1_000)
        -> GrantRedemption.Effect
    {
        GrantRedemption.Effect(
            grantRef: ContentAddress(bytes: [UInt8](repeating: tag, count: 32)), grantType: .recovery,
            authority: "onym:component:a", caseId: "c1", grantee: "u1", fromBinding: from, toBinding: to,
            redeemedAt: Instant(seconds: seconds))
    }

    /// docs/DECISIONS.md "F12, recoveries at one instant": in the order the ledger stores them, as judged —
    /// a chain b1 → b2 → b3 at one instant ends on b3 whatever the grants' refs; listed the other way round,
    /// the second move finds the case not yet on b2 and does not apply.
    @Test func recoveriesAtOneInstantMoveInTheOrderTheLedgerStoresThem() {
        let first = Self.recovery(0xEE, from: "b1", to: "b2")
        let second = Self.recovery(0x11, from: "b2", to: "b3")
        let at = Instant(seconds: 2_000)
        let moves: (GrantRedemption.Effect) -> Bool = { $0.caseId == "c1" }
        #expect(GrantRedemption.location(of: "b1", at: at, [first, second], moves: moves) == "b3")
        #expect(GrantRedemption.location(of: "b1", at: at, [second, first], moves: moves) == "b2")
        // Before the instant, nothing has moved.
        #expect(GrantRedemption.location(of: "b1", at: Instant(seconds: 999), [first, second], moves: moves) == "b1")
    }

    /// gate names a recovery that moved a case onto the asked binding only while the case is still there: a
    /// later recovery that moved it on leaves nothing to say on the binding in between.
    @Test func gateNamesOnlyTheRecoveriesWhoseCaseIsStillHere() {
        let first = Self.recovery(0xEE, from: "b1", to: "b2")
        let second = Self.recovery(0x11, from: "b2", to: "b3", at: 5_000)
        let effects = [first, second]
        #expect(GateQuery.recoveries(into: "b2", effects, at: Instant(seconds: 2_000)).contains("from b1"))
        #expect(GateQuery.recoveries(into: "b2", effects, at: Instant(seconds: 6_000)).isEmpty)
        #expect(GateQuery.recoveries(into: "b3", effects, at: Instant(seconds: 6_000)).contains("from b2"))
    }
}
