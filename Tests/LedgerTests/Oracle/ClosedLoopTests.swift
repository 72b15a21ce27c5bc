import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier
@testable import LedgerWriter

/// The loop from plan to proof: a backend that writes exactly what `reconcile` plans, batch by batch
/// in a real ledger, produces a history `verify` accepts; one write that contradicts the rules is a
/// finding naming that entry. Histories come from the oracle's generator (authority A, one binding, no
/// revocations and no grants: those need their own trigger records, covered by `RevocationTests` and
/// `GrantTests`).
@Suite("Closed loop: planned writes verify")
struct ClosedLoopTests {
    static var budget: Int { Int(ProcessInfo.processInfo.environment["ONYM_CLOSED_LOOP_SEQUENCES"] ?? "") ?? 30 }
    static var seed: UInt64 { UInt64(ProcessInfo.processInfo.environment["ONYM_ORACLE_SEED"] ?? "") ?? 0x0_0ED_1E5 }
    static let signer = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x01))!
    static let interface = FixtureInterface()

    /// A fresh ledger holding authority A's manifest and the scenario user's mandate.
    static func ledger(at path: String) throws {
        let authority = FoldScenario.authorities["A"]!
        let descriptor = LedgerDescriptor(
            ledgerId: "closed-loop", interface: WireString(interface.componentId),
            appleAccount: .init(teamId: "TEAM123456", apps: ["app.onym.ios"]),
            interfaceRootKey: interface.countersigningKey(for: authority.componentId).publicKey)
        _ = try Ledger.initialize(
            path: path, descriptor: descriptor, signingKey: signer, at: Instant.parse("2026-02-01T00:00:00Z")!,
            profile: try EnforcementProfile(json: FixtureProfile.appleDeviceCheck))
        _ = try Appender.with(path) {
            try $0.append(
                items: [
                    BatchItem(
                        source: "manifest",
                        content: .manifest(
                            authority.manifest(),
                            detachedSignature: authority.operatorKey.signature(for: authority.manifestBytes))),
                    BatchItem(source: "mandate", content: .record(FoldScenario.mandates["A"]!)),
                ], signingKey: signer, at: Instant.parse("2026-02-02T00:00:00Z")!)
        }
    }

    static func verify(_ path: String) throws -> VerificationReport {
        let options = Verifier.Options(
            trustRoot: TrustRoot(keys: [signer.publicKey]), now: Instant.parse("2027-01-01T00:00:00Z")!)
        return try Verifier.verify(path: path, options: options)
    }

    static func write(_ at: Instant, _ bits: DeviceBits, by authorizedBy: String) -> WriteRequest {
        try! WriteRequest(
            json: JSONObject([
                ("recordedAt", .string(at.rfc3339)), ("deviceBinding", .string(FoldScenario.binding)),
                ("authorizedBy", .string(authorizedBy)), ("caseOpen", .bool(bits.caseOpen)),
                ("banned", .bool(bits.banned)), ("outcome", .string("ok")),
            ]))
    }

    @Test func plannedWritesVerifyAndAContradictingWriteIsAFinding() throws {
        var generator = FoldScenarioGenerator(seed: Self.seed ^ 0xC105_ED, fractions: false)
        var totalWrites = 0
        var writtenBits: Set<String> = []
        for number in 0..<Self.budget {
            let scenario = generator.scenario(
                name: "loop-\(number)", authorities: ["A"], withRevocations: false, withGrants: false)
            let scratch = ScratchDirectory()
            let path = scratch.path("ledger.git")
            try Self.ledger(at: path)

            // Each verdict is delivered once, at its first receipt; the ledger records that receipt time.
            var delivered: [ContentAddress: (spec: FoldScenario.VerdictSpec, fact: VerdictFact)] = [:]
            let (facts, _) = scenario.facts()
            for (spec, fact) in zip(scenario.verdicts, facts)
            where delivered[fact.ref].map({ fact.receivedAt < $0.fact.receivedAt }) ?? true {
                delivered[fact.ref] = (spec, fact)
            }
            let known = delivered.values.map(\.fact)
            let receipts = Dictionary(grouping: delivered.values, by: { $0.fact.receivedAt })
            let instants = Set(FoldScenario.instants(known, []) + receipts.keys).sorted()

            var lastWritten: DeviceBits?
            var writes: Int64 = 0
            var lastInstant = instants[0]
            for instant in instants {
                var items = (receipts[instant] ?? []).map { delivery in
                    BatchItem(
                        source: delivery.spec.id,
                        content: .submission(
                            try! VerdictSubmission(
                                json: FixtureRecords.submission(
                                    FoldScenario.verdict(delivery.spec).json,
                                    authority: FoldScenario.authorities["A"]!))))
                }
                // The backend's session at `instant`: write what reconcile plans, if anything.
                let row = Reconciler.row(
                    binding: WireString(FoldScenario.binding), facts: known, lastWritten: lastWritten, at: instant)
                if known.contains(where: { $0.knownAt <= instant }), let bits = row.write {
                    items.append(
                        BatchItem(
                            source: "writes",
                            content: .writeRequests([Self.write(instant, bits, by: row.intended.authorizedBy)])))
                    lastWritten = bits
                    writes += 1
                    writtenBits.insert(bits.description)
                }
                guard !items.isEmpty else { continue }
                _ = try Appender.with(path) { try $0.append(items: items, signingKey: Self.signer, at: instant) }
                lastInstant = instant
            }
            let report = try Self.verify(path)
            #expect(report.isVerified, "\(scenario)\n\(report.failures)")
            guard report.isVerified else { return }
            // What was verified is what was planned: the verifier read every planned write from the log.
            #expect(report.summary.writeEntries == writes, "\(scenario)")
            totalWrites += Int(writes)

            // A write the rules do not give: the banned bit flipped, an hour after the last batch.
            let at = lastInstant.adding(seconds: 3600)
            let intended = DeviceFold.evaluate(known, at: at)
            var wrong = intended.bits
            wrong.banned.toggle()
            _ = try Appender.with(path) {
                try $0.append(
                    items: [
                        BatchItem(
                            source: "writes",
                            content: .writeRequests([Self.write(at, wrong, by: intended.authorizedBy)]))
                    ], signingKey: Self.signer, at: at)
            }
            let rejected = try Self.verify(path)
            let sequence = report.summary.writeEntries + 1
            #expect(
                rejected.failures.contains {
                    $0.policy == "WriteReplayPolicy" && ($0.path ?? "").contains(LedgerLayout.logEntryPath(sequence))
                }, "\(rejected.failures)")
        }
        print(
            "closed loop: \(Self.budget) histories, \(totalWrites) planned writes verified, bits \(writtenBits.sorted())"
        )
        // The loop proves something only if the backend wrote: the default budget's histories plan writes of a
        // ban and of a case opened (every bit pattern, checked at the default seed), not only clears.
        #expect(totalWrites >= Self.budget, "\(totalWrites) planned writes in \(Self.budget) histories")
        #expect(writtenBits.isSuperset(of: ["01", "10"]), "bits written: \(writtenBits.sorted())")
    }
}
