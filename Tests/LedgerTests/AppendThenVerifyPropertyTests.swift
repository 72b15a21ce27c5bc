import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier
@testable import LedgerWriter

/// The writer holds itself to every rule `verify` applies at the moment of writing: for generated batches
/// (times before and after the parent and the wall clock, every input kind the writer takes), an append
/// that is accepted gives a ledger `verify` accepts at that same moment, with the conduct findings the
/// append printed; a refused append leaves the ledger as it was.
///
/// `make test` runs a fixed seed and a small budget; `make append-property` a long one
/// (`ONYM_APPEND_PROPERTY_STEPS`, `ONYM_APPEND_PROPERTY_SEED`).
@Suite("Append accepts ⇒ verify accepts, at the same moment")
struct AppendThenVerifyPropertyTests {
    static var steps: Int { Int(ProcessInfo.processInfo.environment["ONYM_APPEND_PROPERTY_STEPS"] ?? "") ?? 60 }
    static var seed: UInt64 {
        UInt64(ProcessInfo.processInfo.environment["ONYM_APPEND_PROPERTY_SEED"] ?? "") ?? 0x0A11_E4D5
    }

    /// What one generated batch holds.
    enum Input: CaseIterable {
        case mandate, verdict, writes, statusAttempt, rotation
    }

    struct Run {
        var random: SeededGenerator
        let path: String
        var parentTime: Int64
        var bindings = FixtureLedger.bindings
        var mandates = FixtureLedger.mandates
        var counter = 0

        mutating func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }

        /// A time near the interesting edges: the parent's time, the wall clock and its 300 s skew.
        mutating func batchTime(now: Int64) -> Int64 {
            pick([
                parentTime - 60, parentTime, parentTime + 1, now - 3_600, now, now + 299, now + 300, now + 301,
                now + 86_400, now + 4 * 365 * 86_400,
            ])
        }

        mutating func items(_ input: Input, at: Int64) -> [BatchItem] {
            counter += 1
            func text(_ seconds: Int64) -> String { Instant(seconds: seconds).rfc3339 }
            switch input {
            case .mandate:
                let binding = "enrollment:generated-\(counter)"
                let mandate = try! Mandate(
                    json: FixtureRecords.mandate(
                        user: FixtureLedger.users[counter % 3], interface: FixtureLedger.interface,
                        authority: FixtureLedger.authority, classes: ["csam", "unsolicited-pornography"],
                        deviceBinding: binding, acceptedAt: text(at + pick([-86_400, 0, 299, 301]))))
                return [BatchItem(source: "mandate", content: .record(mandate))]
            case .verdict:
                let mandate = pick(mandates)
                let verdict = FixtureRecords.verdict(
                    pick([.openCase, .dismiss]), caseId: "generated-\(counter)", mandate: mandate,
                    authority: FixtureLedger.authority, classId: "csam",
                    decidedAt: text(at + pick([-3_600, 0, 200, 299, 301, 400])))
                return [
                    BatchItem(
                        source: "verdict",
                        content: .submission(
                            try! VerdictSubmission(
                                json: FixtureRecords.submission(verdict, authority: FixtureLedger.authority))))
                ]
            case .writes:
                let recorded = pick([parentTime - 1, parentTime, at, at + 1])
                let request = try! WriteRequest(
                    json: JSONObject([
                        ("recordedAt", .string(text(recorded))),
                        ("deviceBinding", .string(pick(FixtureLedger.bindings))),
                        ("authorizedBy", .string("reconciliation")), ("caseOpen", .bool(pick([false, true]))),
                        ("banned", .bool(pick([false, true]))), ("outcome", .string("ok")),
                    ]))
                return [BatchItem(source: "writes", content: .writeRequests([request]))]
            case .statusAttempt:
                let attempt = try! StatusAttempt(
                    json: FixtureRecords.statusAttempt(
                        interface: FixtureLedger.interface, authority: FixtureLedger.authority.componentId,
                        attemptedAt: text(pick([parentTime - 1, parentTime, at, at + 1]))))
                return [BatchItem(source: "attempt", content: .record(attempt))]
            case .rotation:
                return []
            }
        }
    }

    static func tipAndTime(_ path: String) throws -> (ObjectID, Int64) {
        let repository = try Repository.open(path)
        let tip = try #require(try repository.referenceTarget(LedgerLayout.branch))
        return (tip, try repository.commit(tip).time)
    }

    @Test func anAcceptedBatchVerifiesAtTheMomentOfWriting() throws {
        let scratch = ScratchDirectory()
        let path = TamperCorpusTests.copyOfGood(scratch)
        var run = Run(random: .init(state: Self.seed), path: path, parentTime: try Self.tipAndTime(path).1)
        var accepted = 0
        var refused = 0
        for step in 0..<Self.steps {
            let (before, parentTime) = try Self.tipAndTime(path)
            run.parentTime = parentTime
            // The moment of writing: at or after the parent (a writer's clock is where the history is).
            let now = parentTime + run.pick([0, 60, 3_600, 86_400])
            let at = run.batchTime(now: now)
            let input = run.pick(Input.allCases)
            var printed: [PolicyFailure] = []
            do {
                if input == .rotation {
                    let add = Ed25519.PrivateKey(seed: FixtureSeed.labelled("rotation-\(step)"))!.publicKey
                    _ = try Appender.with(path) {
                        try $0.rotateSigners(
                            signingKey: FixtureLedger.signer2, add: [add], remove: [],
                            at: Instant(seconds: at), logKey: FixtureLedger.signer1, now: Instant(seconds: now))
                    }
                } else {
                    let result = try Appender.with(path) {
                        try $0.append(
                            items: run.items(input, at: at), signingKey: FixtureLedger.signer2,
                            at: Instant(seconds: at), logKey: FixtureLedger.signer1, now: Instant(seconds: now))
                    }
                    printed = result.conductFindings
                }
            } catch {
                refused += 1
                #expect(try Self.tipAndTime(path).0 == before, "step \(step): a refused append moved the branch")
                if at > now + HistoryPolicy.futureSkewSeconds {
                    #expect("\(error)".contains("HistoryPolicy"), "step \(step): \(error)")
                }
                continue
            }
            let (tip, _) = try Self.tipAndTime(path)
            guard tip != before else { continue }  // nothing new to publish (already in the ledger)
            accepted += 1
            #expect(at <= now + HistoryPolicy.futureSkewSeconds, "step \(step): a batch from the future was written")
            var options = Verifier.Options(
                trustRoot: TrustRoot(keys: [FixtureLedger.signer1.publicKey]), now: Instant(seconds: now))
            options.resume = false
            let report = try Verifier.verify(path: path, options: options)
            #expect(
                report.isAuthentic,
                "step \(step) (\(input), at \(Instant(seconds: at).rfc3339), now \(Instant(seconds: now).rfc3339)): \(report.failures.filter { $0.kind == .integrity })"
            )
            let found = Set(report.conductFindings.filter { $0.commit == tip }.map(\.description))
            #expect(
                found == Set(printed.map(\.description)), "step \(step): append printed \(printed), verify \(found)")
        }
        // The generator reaches both sides of the rules.
        #expect(accepted >= Self.steps / 5, "accepted \(accepted) of \(Self.steps)")
        #expect(refused >= Self.steps / 5, "refused \(refused) of \(Self.steps)")
    }

    /// The finding as a user meets it: a typo in `--at` is refused with 65 and nothing written, and the ledger
    /// still takes the next batch.
    @Test func aBatchFromTheFutureIsRefusedAndTheLedgerStaysUsable() throws {
        let scenario = LedgerScenario()
        let before = scenario.tip
        let future = scenario.append(
            [scenario.file(scenario.mandate(acceptedAt: "2999-01-01T00:00:00Z"))], at: "2999-01-01T00:00:00Z",
            expect: 65)
        #expect(future.stderr.contains("HistoryPolicy"), "\(future.stderr)")
        #expect(future.stderr.contains("2999-01-01T00:00:00Z"), "\(future.stderr)")
        #expect(scenario.tip == before)
        scenario.append([scenario.file(scenario.mandate())], at: "2026-08-08T00:00:00Z")
        let verify = CLI.run(["verify", scenario.ledger, "--trust", scenario.signer + ".pub"])
        #expect(verify.status == 0, "\(verify.stdout) \(verify.stderr)")
    }
}
