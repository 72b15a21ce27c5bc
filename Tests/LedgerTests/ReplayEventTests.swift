import Foundation
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier

/// The decisions `verify --explain` prints are asserted exactly — every policy, in the
/// standard order, once per commit, and a failure as the one event that carries it.
@Suite("Replay events")
struct ReplayEventTests {
    final class Recorder: @unchecked Sendable {
        var events: [ReplayEvent] = []
        let lock = NSLock()
        func record(_ event: ReplayEvent) { lock.withLock { events.append(event) } }
    }

    static func events(_ ledger: String, state: String) throws -> (ObjectID, [ReplayEvent]) {
        let recorder = Recorder()
        var options = Verifier.Options(
            trustRoot: TrustRoot(keys: [FixtureLedger.signer1.publicKey]), now: Instant.parse("2026-12-01T00:00:00Z")!)
        options.stateRoot = state
        options.diagnostic = { recorder.record($0) }
        let report = try Verifier.verify(path: ledger, options: options)
        return (report.summary.tip!, recorder.events)
    }

    @Test func everyPolicyDecidesEveryCommitInOrder() throws {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let (_, events) = try Self.events(ledger, state: scratch.path("state"))
        let commits = try Repository.open(ledger).history(
            from: try Repository.open(ledger).referenceTarget(LedgerLayout.branch)!)
        let names = StandardLedgerPolicy.policies.map(\.name)
        #expect(events.count == commits.count * names.count)
        for (index, commit) in commits.enumerated() {
            let slice = events[(index * names.count)..<((index + 1) * names.count)]
            #expect(slice.map(\.commit) == Array(repeating: commit, count: names.count))
            #expect(slice.map(\.policy) == names)
            #expect(slice.allSatisfy { $0.failures.isEmpty }, "\(slice.filter { !$0.failures.isEmpty })")
        }
        #expect(events.first.map(\.description) == "\(commits[0].short) HistoryPolicy: ok")
    }

    @Test func aFindingIsTheEventOfItsPolicyAndCommit() throws {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let attack = try #require(TamperCorpus.attacks.first { $0.name == "sequence gap" })
        attack.mutate(
            try Surgeon(path: ledger, keys: [FixtureLedger.signer1, FixtureLedger.signer2, TamperCorpus.stranger]))
        let (tip, events) = try Self.events(ledger, state: scratch.path("state"))
        let failing = events.filter { !$0.failures.isEmpty }
        // The gap, the trailers that count past it, and the orphaned write the replay cannot place.
        #expect(failing.map(\.policy) == ["ChainLinkPolicy", "LogTrailerPolicy", "WriteReplayPolicy"])
        #expect(failing.map(\.failures.count) == [1, 2, 1])
        #expect(failing.allSatisfy { $0.commit == tip })
        #expect(failing[0].failures.map(\.reason) == ["expected sequence 7 next; the log has a gap or a reordering"])
        #expect(failing[1].failures.first?.reason == "the trailers state 8 entries; the log holds 6")
        #expect(failing[0].description.hasPrefix("\(tip.short) ChainLinkPolicy: \(tip.short) log/"))
        let policies = StandardLedgerPolicy.policies.map(\.name)
        #expect(events.suffix(policies.count).map(\.policy) == policies)
    }
}
