import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier

/// A candidate whose signature is made by a key its kind's rule does not name.
private struct ForgedCandidate {
    /// The file `append` takes and `inspect` reads.
    let file: String
    /// Files `append` takes with it in the same commit (a redemption's grant).
    var alongside: [String] = []
    /// The policy both verbs refuse it under; nil when the kind declares no signature of its own, so both
    /// take it.
    let policy: String?
    /// Whether `inspect` cannot see the signature from the file alone (it lists it as not checked).
    var notVisibleAlone = false
}

extension InspectAppendAgreementTests {
    /// For every stored kind (``StoredRecords/kinds``, so a new kind is covered the day it is listed), a
    /// candidate signed by a stranger is judged alike by `inspect` and `append`: both refuse it under the
    /// same policy, or — where the signature's key is named by another record (a grant's, by its
    /// redemption) — `append` judges it there and `inspect` says it could not check it; a kind that declares
    /// no signature of its own is refused by neither.
    @Test func aCandidateSignedByAStrangerIsJudgedAlikeByInspectAndAppend() throws {
        let scenario = LedgerScenario()
        let stranger = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x55))!
        let authority = scenario.authority
        let mandate = try Mandate(json: scenario.mandate())
        scenario.append(
            [scenario.file(authority.manifestBytes, name: "manifest.json"), scenario.file(mandate.json)],
            at: "2026-08-09T00:00:00Z")
        let candidates = try forgedCandidates(scenario, mandate: mandate, stranger: stranger)
        #expect(
            Set(candidates.keys) == Set(StoredRecords.kinds.map { $0.kindName }), "a forged candidate for every kind")
        let keys = [
            scenario.interface.countersigningKey(for: authority.componentId).publicKey.onymKey,
            authority.operatorKey.publicKey.onymKey,
        ]
        for (index, kind) in StoredRecords.kinds.enumerated() {
            guard let entry = candidates[kind.kindName], let candidate = entry else { continue }
            let inspected = CLI.run(["inspect", candidate.file, "--json"] + keys.flatMap { ["--key", $0] })
            let appended = CLI.run(
                [
                    "append", scenario.ledger, "--signing-key", scenario.signer, "--at", "2026-08-12T0\(index):00:00Z",
                ] + candidate.alongside + [candidate.file])
            let said = "\(kind.kindName): inspect \(inspected.stdout)\(inspected.stderr) append \(appended.stderr)"
            guard let policy = candidate.policy else {
                #expect(inspected.status == 0 && appended.status == 0, "\(said)")
                continue
            }
            #expect(appended.status == 65 && appended.stderr.contains(policy), "\(said)")
            if candidate.notVisibleAlone {
                #expect(inspected.status == 0 && inspected.stdout.contains("signature"), "\(said)")
                #expect(!inspected.stdout.contains(#""status":"valid""#), "\(said)")
            } else {
                #expect(inspected.status == 1 && inspected.stdout.contains(#""policy":"\#(policy)""#), "\(said)")
            }
        }
    }

    /// Every signature a kind declares — every stored kind's, and a manifest's detached one — is judged by
    /// exactly one standard policy: the name `inspect` reports it under is the one `append` and `verify` use.
    @Test func everyDeclaredSignatureIsJudgedByOnePolicy() {
        let kinds: [any RecordDeclaration.Type] = StoredRecords.kinds + [DetachedManifestSignature.self]
        for judged in JudgedSignature.declared(by: kinds) {
            let judges = StandardLedgerPolicy.policies.filter { policy in
                type(of: policy).judgedSignatures.contains { $0.isOf(judged.kind, judged.role) }
            }
            #expect(judges.count == 1, "\(judged.kind) \(judged.role): judged by \(judges.map(\.name))")
        }
    }

    /// By kind name: a candidate of that kind signed by `stranger`, or nil for a kind that carries no signature.
    private func forgedCandidates(_ scenario: LedgerScenario, mandate: Mandate, stranger: Ed25519.PrivateKey)
        throws -> [String: ForgedCandidate?]
    {
        let authority = scenario.authority
        let strangerSigned = { (object: JSONObject) in scenario.file(FixtureRecords.signed(object, with: stranger)) }
        var swappedUser = scenario.mandate(binding: "enrollment:device-2")
        if case .array(let signatures) = swappedUser["signatures"]! {
            swappedUser.set("signatures", .array([signatures[1], signatures[1]]))
        }
        let other = FixtureAuthority(validUntil: "2027-09-30T23:59:59Z")
        let manifest = scenario.file(other.manifestBytes, name: "other-manifest.json")
        _ = scenario.file(stranger.signature(for: other.manifestBytes), name: "other-manifest.json.sig")
        let verdict = FixtureRecords.verdict(
            .openCase, caseId: "case-1", mandate: mandate, authority: authority, classId: "csam",
            decidedAt: "2026-08-10T00:00:00Z")
        let report = FixtureRecords.compromiseReport(
            authority: authority, compromisedAt: "2026-08-10T00:00:00Z", reportedAt: "2026-08-10T06:00:00Z")
        let grant = FixtureRecords.grant(
            "onym-recovery-grant-v1", caseId: "case-1", grantee: scenario.user.publicKey.onymKey,
            authority: authority, issuedAt: "2026-08-11T00:00:00Z", signer: stranger)
        let redeemed = FixtureRecords.grant(
            "onym-recovery-grant-v1", caseId: "case-1", grantee: scenario.user.publicKey.onymKey,
            authority: authority, issuedAt: "2026-08-11T00:30:00Z", signer: stranger)
        let redemption = FixtureRecords.redemption(
            of: redeemed, mandateRef: mandate.ref, from: "enrollment:device-1", to: "enrollment:device-3",
            redeemedAt: "2026-08-11T01:00:00Z")
        return [
            EnforcementProfile.kindName: nil,
            AuthorityManifest.kindName: ForgedCandidate(file: manifest, policy: "ManifestSignaturePolicy"),
            Mandate.kindName: ForgedCandidate(file: scenario.file(swappedUser), policy: "MandateSignaturePolicy"),
            Verdict.kindName: ForgedCandidate(
                file: scenario.file(
                    FixtureRecords.submission(FixtureRecords.signed(verdict, with: stranger), authority: authority)),
                policy: "VerdictAuthorityPolicy"),
            VerdictReceipt.kindName: nil,
            StatusAttempt.kindName: ForgedCandidate(
                file: strangerSigned(
                    FixtureRecords.statusAttempt(
                        interface: scenario.interface, authority: authority.componentId,
                        attemptedAt: "2026-08-10T00:00:00Z")), policy: "RevocationPolicy"),
            CompromiseReport.kindName: ForgedCandidate(file: strangerSigned(report), policy: "RevocationPolicy"),
            RevocationDetermination.kindName: ForgedCandidate(
                file: strangerSigned(
                    FixtureRecords.revocation(
                        interface: scenario.interface, authority: authority.componentId,
                        trigger: "authority-compromise", effectiveAt: "2026-08-10T00:00:00Z",
                        determinedAt: "2026-08-11T00:00:00Z", evidence: [try CompromiseReport(json: report).ref])),
                alongside: [scenario.file(report)], policy: "RevocationPolicy"),
            // A grant names no record: the key that signs it is named by its redemption, where it is judged.
            Grant.kindName: ForgedCandidate(file: scenario.file(grant), policy: nil),
            Redemption.kindName: ForgedCandidate(
                file: scenario.file(redemption), alongside: [scenario.file(redeemed)], policy: "GrantPolicy",
                notVisibleAlone: true),
        ]
    }
}
