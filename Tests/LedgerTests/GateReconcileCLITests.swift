import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerWriter

@Suite("CLI: gate and reconcile over a verified ledger")
struct GateReconcileCLITests {
    func run(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        CLI.run(arguments + ["--trust", TamperCorpusTests.trust])
    }

    @Test func gateAnswersBannedCaseOpenAndClear() {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let banned = run([
            "gate", ledger, "--binding", FixtureLedger.bindings[1], "--at", "2026-08-20T00:00:00Z", "--json",
        ])
        #expect(banned.status == 0, "\(banned.stderr)")
        #expect(banned.stdout.contains(#"{"banned":{"_0":{"appealUrl":"https://authority.example/appeal""#))
        #expect(banned.stdout.contains(#""intended":"10""#))
        let open = run(["gate", ledger, "--binding", FixtureLedger.bindings[0], "--at", "2026-08-12T00:00:00Z"])
        #expect(open.stdout.hasPrefix(#"{"caseOpen":{"_0":[{"accused":"#))
        #expect(open.stdout.contains("Case open: case-open"))
        let clear = run(["gate", ledger, "--binding", FixtureLedger.bindings[2], "--at", "2026-08-12T00:00:00Z"])
        #expect(clear.stdout.hasPrefix(#"{"clear":{}}"#))
        // The case defaults at its decision deadline: clear, and a pending write is announced.
        let defaulted = run([
            "gate", ledger, "--user", FixtureLedger.users[0].publicKey.onymKey, "--at", "2026-08-18T00:00:00Z",
        ])
        #expect(defaulted.stdout.hasPrefix(#"{"clear":{}}"#))
        #expect(defaulted.stdout.contains("blown decision deadline"))
        #expect(defaulted.stdout.contains("write bits 00 now, authorized by decision-deadline-default"))
        // An identity without a mandate routes to the consent gate.
        let stranger = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x44))!.publicKey.onymKey
        let unknown = run(["gate", ledger, "--user", stranger, "--at", "2026-08-12T00:00:00Z"])
        #expect(unknown.stdout.hasPrefix(#"{"checkRequired":{"_0":"enrollmentLost"}}"#))
    }

    @Test func clientDerivationOffline() {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let binding = FixtureLedger.bindings[1]
        let never = run(["gate", ledger, "--client", "--offline", "--binding", binding, "--at", "2026-08-20T00:00:00Z"])
        #expect(never.stdout.hasPrefix(#"{"checkRequired":{"_0":"neverChecked"}}"#))
        let grace = run([
            "gate", ledger, "--client", "--offline", "--binding", binding, "--at", "2026-08-20T00:00:00Z",
            "--last-success", "2026-08-18T00:00:00Z",
        ])
        #expect(grace.stdout.hasPrefix(#"{"banned":"#))
        let expired = run([
            "gate", ledger, "--client", "--offline", "--binding", binding, "--at", "2026-08-25T00:00:00Z",
            "--last-success", "2026-08-18T00:00:00Z",
        ])
        #expect(expired.stdout.hasPrefix(#"{"checkRequired":{"_0":"offlineGraceExpired"}}"#))
        let rollback = run([
            "gate", ledger, "--client", "--offline", "--binding", binding, "--at", "2026-08-17T00:00:00Z",
            "--last-success", "2026-08-18T00:00:00Z",
        ])
        #expect(rollback.stdout.hasPrefix(#"{"checkRequired":{"_0":"clockRollback"}}"#))
    }

    @Test func reconcileFindsTheOverdueClearAndTheDeadlineDefault() throws {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let result = run(["reconcile", ledger, "--at", "2027-09-01T00:00:00Z", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report["bindings"] as? Int == 3)
        #expect(report["pendingWrites"] as? Int == 2)
        #expect(report["overdueClears"] as? Int == 1)
        let rows = try #require(report["rows"] as? [[String: Any]])
        let byBinding = Dictionary(uniqueKeysWithValues: rows.map { ($0["binding"] as! String, $0) })
        #expect(byBinding[FixtureLedger.bindings[0]]?["authorizedBy"] as? String == "decision-deadline-default")
        #expect(byBinding[FixtureLedger.bindings[1]]?["authorizedBy"] as? String == "expiry")
        #expect(byBinding[FixtureLedger.bindings[1]]?["overdueClear"] as? Bool == true)
        #expect(byBinding[FixtureLedger.bindings[2]]?["write"] is NSNull)
        let human = run(["reconcile", ledger, "--at", "2027-09-01T00:00:00Z"])
        #expect(human.stdout.contains("3 bindings, 2 pending writes, 1 overdue clears"))
        #expect(human.stdout.contains("(overdue clear)"))
    }

    @Test func gateRefusesALedgerThatDoesNotVerify() throws {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let surgeon = try Surgeon(path: ledger, keys: [FixtureLedger.signer1, FixtureLedger.signer2])
        surgeon.append([], signing: Surgeon.Signing.none)
        let result = run(["gate", ledger, "--binding", FixtureLedger.bindings[1], "--at", "2026-08-20T00:00:00Z"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("the ledger is not authentic"))
    }

    /// A typo in --binding is an error (65), not a plausible answer.
    @Test func anUnknownBindingIsAnError() {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        for verb in ["gate", "reconcile"] {
            let result = run([verb, ledger, "--binding", "enrollment:nope", "--at", "2026-08-12T00:00:00Z"])
            #expect(result.status == 65, "\(verb): \(result.stdout)")
            #expect(result.stderr.contains("enrollment:nope"))
            #expect(result.stdout.isEmpty)
        }
    }

    /// A device binding named by mandates of more than one identity is never silent.
    @Test func aBindingSharedByIdentitiesIsShown() throws {
        let scenario = LedgerScenario()
        let second = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x33))!
        scenario.append(
            [
                scenario.file(scenario.authority.manifestBytes, name: "manifest.json"),
                scenario.file(scenario.mandate()),
                scenario.file(scenario.mandate(user: second, acceptedAt: "2026-08-08T06:00:00Z")),
            ], at: "2026-08-09T00:00:00Z")
        let trust = scenario.signer + ".pub"
        let gate = CLI.run([
            "gate", scenario.ledger, "--binding", "enrollment:device-1", "--at", "2026-08-10T00:00:00Z", "--trust",
            trust,
        ])
        #expect(gate.stdout.contains("Mandates of 2 identities name enrollment:device-1"), "\(gate.stdout)")
        #expect(gate.stdout.contains(second.publicKey.onymKey))
        let reconcile = CLI.run([
            "reconcile", scenario.ledger, "--at", "2026-08-10T00:00:00Z", "--all", "--trust", trust,
        ])
        #expect(reconcile.stdout.contains("(mandates of 2 identities)"), "\(reconcile.stdout)")
        // And in verify's summary, human and JSON, also when it resumes from the auditor's state.
        let state = ["--state", scenario.scratch.path("state")]
        let verify = CLI.run(["verify", scenario.ledger, "--trust", trust, "--at", "2026-08-10T00:00:00Z"] + state)
        #expect(verify.stdout.contains("shared:       1 device binding(s) named by mandates of several identities"))
        #expect(
            verify.stdout.contains(
                "enrollment:device-1: \(scenario.user.publicKey.onymKey) (accepted 2026-08-08T00:00:00Z)"))
        let third = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x34))!
        scenario.append([scenario.file(scenario.mandate(user: third))], at: "2026-08-10T00:00:00Z")
        let again = CLI.run(["verify", scenario.ledger, "--at", "2026-08-11T00:00:00Z", "--json"] + state)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["commitsChecked"] as? Int == 1)
        let shared = try #require(summary["sharedBindings"] as? [[String: Any]])
        #expect((shared.first?["identities"] as? [Any])?.count == 3)
    }

    /// Every verb the binary lists in its own help — not a list kept here, which a new verb could miss.
    @Test func everyVerbHasHelpWithExamples() {
        let overview = CLI.run(["--help"]).stdout
        let verbs = overview.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), let word = line.split(separator: " ").first,
                word.allSatisfy({ $0.isLowercase || $0 == "-" })
            else { return nil }
            return String(word)
        }
        #expect(verbs.count >= 21 && verbs.contains("follow") && verbs.contains("witness"), "\(verbs)")
        for verb in verbs {
            let result = CLI.run([verb, "--help"])
            #expect(result.status == 0, "\(verb)")
            #expect(result.stdout.contains("USAGE: onym-ledger \(verb)"), "\(verb)")
            #expect(result.stdout.contains("\nEXAMPLES:\n  onym-ledger \(verb) "), "\(verb)")
        }
    }

    /// One wording for a missing or malformed time, with an example value.
    @Test func timeOptionsShareOneWording() {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let missing = run(["reconcile", ledger])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("--at is required: an RFC 3339 date-time such as 2026-08-01T12:00:00Z"))
        for verb in ["gate", "reconcile", "verify"] {
            let bad = run(
                [verb, ledger, "--binding", "x", "--at", "yesterday"].filter {
                    verb != "verify" || ($0 != "--binding" && $0 != "x")
                })
            #expect(bad.status == 64, "\(verb)")
            #expect(
                bad.stderr.contains("--at must be an RFC 3339 date-time such as 2026-08-01T12:00:00Z; got 'yesterday'"),
                "\(verb): \(bad.stderr)")
        }
    }
}
