import Foundation
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier

/// fsck for the replay state: the state a writer restores from a commit's tree, and the state resumed from
/// a checkpoint's files, are the state the fold (`ReplayState.apply`) builds up to that commit — field by
/// field, at every commit of the example ledger. A rule the fold keeps and the rebuild forgets (or a field a
/// checkpoint does not carry) shows here as the first field that differs, at the first commit it matters.
@Suite("Replay state fsck")
struct ReplayStateFsckTests {
    /// Every `stride`-th commit is checked, and the last: every 10th in `make test` (3 s alone); each rebuild
    /// walks the history before it, so all of them take about 30 s alone, more under a loaded `make test` —
    /// `make fsck` sets `ONYM_FSCK_STRIDE=1`.
    static var stride: Int { max(1, Int(ProcessInfo.processInfo.environment["ONYM_FSCK_STRIDE"] ?? "") ?? 10) }

    @Test func restoredStatesEqualTheFoldAtEveryCommit() throws {
        let repository = try Repository.open(ExampleLedgerTests.example.appendingPathComponent("ledger.git").path)
        let tip = try #require(try repository.referenceTarget(LedgerLayout.branch))
        let chain = try repository.history(from: tip)
        #expect(chain.count >= 300)
        let signer = try OpenSSHKey.parsePublicKey(
            try String(contentsOfFile: ExampleLedgerTests.trust, encoding: .utf8))
        let now = Instant.parse("2026-12-01T00:00:00Z")!
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fsck-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        var folded = ReplayState(trustRoot: TrustRoot(keys: [signer]), now: now)
        let summary = VerificationSummary()
        let loader = CommitLoader(repository: repository, clock: PhaseClock())
        var checked = 0
        for (offset, id) in chain.enumerated() {
            let step = try loader.load(id, index: folded.commitsSeen, state: folded)
            folded.apply(step)
            guard offset % Self.stride == 0 || offset == chain.count - 1 else { continue }
            checked += 1
            let rebuilt = try CandidateCommit.rebuiltState(at: id, in: repository, signer: signer, now: now)
            if let field = Self.firstDifference(rebuilt, folded) {
                Issue.record(
                    "commit \(offset) \(id.short): the rebuild from its tree differs from the fold in \(field)")
                return
            }
            let resumed = try Self.resumedThroughFiles(folded, at: id, summary: summary, repository, folder)
            if let field = Self.firstDifference(resumed, folded) {
                Issue.record("commit \(offset) \(id.short): the state resumed from a checkpoint differs in \(field)")
                return
            }
        }
        #expect(checked >= chain.count / Self.stride)
    }

    /// `state` saved as a checkpoint (its JSON, replay maps and record index files) and resumed from them.
    static func resumedThroughFiles(
        _ state: ReplayState, at commit: ObjectID, summary: VerificationSummary, _ repository: Repository,
        _ folder: String
    ) throws -> ReplayState {
        let saved = Checkpoint(of: state, tip: commit, trust: [], summary: summary)
        var checkpoint = try Checkpoint(bytes: CanonicalJSON.encode(saved.json))
        let paths = ReplayMaps.Paths(small: folder + "/replay.state", bindings: folder + "/bindings.table")
        try saved.maps?.save(to: paths, tip: commit, durable: false)
        try saved.records?.save(to: folder + "/records.table", tip: commit, durable: false)
        checkpoint.maps = ReplayMaps.load(from: paths, tip: commit)
        checkpoint.records = RecordIndex.load(from: folder + "/records.table", tip: commit)
        #expect(checkpoint.maps != nil && checkpoint.records != nil)
        return try ReplayState.resumed(
            at: commit, from: checkpoint, repository: repository, trustRoot: state.trustRoot, now: state.now)
    }

    /// The name of the first stored property of `ReplayState` whose values differ, with both values; nil
    /// when the states are equal. Every property is compared (by reflection), so a field added later is too.
    static func firstDifference(_ left: ReplayState, _ right: ReplayState) -> String? {
        if left == right { return nil }
        let rightFields = Dictionary(
            uniqueKeysWithValues: Mirror(reflecting: right).children.map { ($0.label ?? "?", $0.value) })
        for child in Mirror(reflecting: left).children {
            let label = child.label ?? "?"
            guard let other = rightFields[label] else { return label }
            if !equal(child.value, other) {
                return
                    "\(label): \(String(describing: child.value).prefix(300)) ≠ \(String(describing: other).prefix(300))"
            }
        }
        return "a field reflection does not show"
    }

    private static func equal(_ left: Any, _ right: Any) -> Bool {
        guard let left = left as? any Equatable else { return false }
        return left.isEqual(to: right)
    }
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool { (other as? Self) == self }
}
