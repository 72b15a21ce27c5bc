import Foundation
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier

/// "verify, then evaluate", identity → binding resolution, reconcile rows and the JSON shapes
/// live in the library; these tests call the front ends directly (the CLI tests stay end to end).
@Suite("Front ends: audited ledger, gate, reconcile")
struct FrontEndTests {
    static func binding(_ actor: String) -> String {
        let table = try! String(
            contentsOf: ExampleLedgerTests.example.appendingPathComponent("actors.tsv"), encoding: .utf8)
        let line = table.split(separator: "\n").first { $0.hasPrefix(actor + "\t") }!
        return String(line.split(separator: "\t")[2])
    }

    static func audited(_ scratch: borrowing ScratchDirectory) throws -> AuditedLedger {
        let trust = try TrustRoot.parse(String(contentsOfFile: ExampleLedgerTests.trust, encoding: .utf8))
        return try AuditedLedger.open(
            path: ExampleLedgerTests.example.appendingPathComponent("ledger.git").path, trust: trust,
            stateRoot: scratch.path("state"), now: Instant.parse("2026-12-01T00:00:00Z")!)
    }

    @Test func gateResolvesIdentitiesAndRefusesUnknownBindings() throws {
        let scratch = ScratchDirectory()
        let ledger = try Self.audited(scratch)
        #expect(ledger.conductFindings.isEmpty)
        let bruno = try GateQuery(
            subject: .user(ExampleLedgerTests.actor("bruno")), at: Instant.parse("2026-06-10T00:00:00Z")!
        )
        .answer(over: ledger)
        #expect(bruno.binding == WireString(Self.binding("bruno")))
        guard case .banned = bruno.result else {
            Issue.record("Bruno is banned on 06-10: \(bruno.explanation)")
            return
        }
        #expect(bruno.json["intended"] == .string("10"))
        let stranger = try GateQuery(
            subject: .user("onym:key:" + String(repeating: "ab", count: 32)), at: Instant.parse("2026-06-10T00:00:00Z")!
        )
        .answer(over: ledger)
        #expect(stranger.result.json == GateResult.checkRequired(.enrollmentLost).json)
        #expect(stranger.binding == nil)
        #expect(throws: AuditedLedger.UnknownBinding.self) {
            try GateQuery(subject: .binding("enrollment:nope"), at: Instant.parse("2026-06-10T00:00:00Z")!)
                .answer(over: ledger)
        }
    }

    @Test func reconcileMarksDmitrisOverdueClear() throws {
        let scratch = ScratchDirectory()
        let ledger = try Self.audited(scratch)
        let report = try ReconcileQuery(at: Instant.parse("2026-07-15T00:00:00Z")!).reconcile(ledger)
        let dmitri = try #require(report.rows.first { $0.row.binding == Self.binding("dmitri") })
        #expect(dmitri.row.isOverdueClear)
        #expect(dmitri.row.write == .clear)
        #expect(dmitri.row.intended.authorizedBy == "expiry")
        #expect(report.overdue.map(\.row.binding).contains(WireString(Self.binding("dmitri"))))
        #expect(report.json["pendingWrites"] == .integer(Int64(report.pending.count)))
        #expect(throws: AuditedLedger.UnknownBinding.self) {
            try ReconcileQuery(at: Instant.parse("2026-07-15T00:00:00Z")!, binding: "enrollment:nope").reconcile(ledger)
        }
    }

    @Test func aLedgerThatIsNotAuthenticIsNotEvaluated() throws {
        let scratch = ScratchDirectory()
        let copy = scratch.path("ledger.git")
        #expect(
            runProcess("cp", ["-a", ExampleLedgerTests.example.appendingPathComponent("ledger.git").path, copy]).status
                == 0)
        // Another key as the root of trust: every commit is signed by a key it does not admit.
        let stranger = try TrustRoot.parse(
            OpenSSHKey.publicKeyLine(Ed25519.PrivateKey(seed: [UInt8](repeating: 9, count: 32))!.publicKey))
        #expect {
            _ = try AuditedLedger.open(
                path: copy, trust: stranger, stateRoot: scratch.path("state"),
                now: Instant.parse("2026-12-01T00:00:00Z")!)
        } throws: { error in
            guard case AuditedLedger.Failure.notAuthentic(let findings) = error else { return false }
            return findings.contains { $0.policy == CommitSignaturePolicy.name }
        }
    }

    @Test func verifyReportsInTheLibrary() throws {
        let scratch = ScratchDirectory()
        var options = Verifier.Options(
            trustRoot: try TrustRoot.parse(String(contentsOfFile: ExampleLedgerTests.trust, encoding: .utf8)),
            now: Instant.parse("2026-12-01T00:00:00Z")!)
        options.stateRoot = scratch.path("state")
        let report = try Verifier.verify(
            path: ExampleLedgerTests.example.appendingPathComponent("ledger.git").path, options: options)
        let lines = report.lines(findingsPerPolicy: 5)
        #expect(lines.first == "VERIFIED onym-chat-enforcement")
        #expect(
            lines.contains(
                "  write log:    363 entries, head 1a4751805e0b155e3b1a52d7768a611a6fedb3eaaba6f4d3774d860917a61fea"))
        #expect(report.json["verified"] == .bool(true))
        #expect(report.json["findings"] == .array([]))
        // Capping: six findings of one policy show five and a count.
        let findings = (1...6).map { PolicyFailure(policy: "ChainLinkPolicy", commit: nil, reason: "gap \($0)") }
        let capped = VerificationReport.capped(findings, perPolicy: 5)
        #expect(capped.count == 6)
        #expect(capped.last == "… and 1 more ChainLinkPolicy finding(s); --json lists all")
    }
}
