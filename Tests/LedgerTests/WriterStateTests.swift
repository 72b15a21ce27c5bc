import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier
@testable import LedgerWriter

/// The writer's replay state files (``WriterStateFile``): a cache of its own results, so it must give the
/// judgement a rebuild from the tree gives, and it must never be trusted past its tip or its bytes.
@Suite("Writer state files")
struct WriterStateTests {
    /// The replay maps' files round-trip exactly — every binding's identity, last written bits and facts
    /// (nanoseconds included), shared identities, revocations, attempts and manifests of the example's tip —
    /// and are refused (nil, never a trap) for another tip, for every truncation of the small file, and
    /// with its end changed.
    @Test func theReplayMapsFilesRoundTripTheExampleState() throws {
        let repository = try Repository.open(ExampleLedgerTests.example.appendingPathComponent("ledger.git").path)
        let tip = try #require(try repository.referenceTarget(LedgerLayout.branch))
        var state = ReplayState(trustRoot: TrustRoot(), now: Instant.parse("2026-12-01T00:00:00Z")!)
        var summary = VerificationSummary()
        try state.restore(&summary, at: tip, repository: repository, checkpoint: nil)
        let records = state.maps.bindings.dictionary()
        #expect(records.values.reduce(0) { $0 + $1.facts.count } == 305)
        // 75 bindings a stored mandate names, and Nadia's new phone's, which only her recovery moved a mandate to.
        #expect(records.values.filter(\.isMandated).count == 75 && records.count == 76)
        #expect(state.maps.redemptions.map(\.grantType) == [.recovery, .unban])
        var maps = state.maps
        // The example's bindings each have one identity: add one two identities share.
        let at = Instant.parse("2026-08-01T00:00:00.5Z")!
        maps.identities = BindingIdentities(shared: [
            "enrollment:shared": [.init(user: "onym:key:a", acceptedAt: at), .init(user: "onym:key:b", acceptedAt: at)]
        ])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("maps-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paths = ReplayMaps.Paths(small: folder + "/replay.state", bindings: folder + "/bindings.table")
        try maps.save(to: paths, tip: tip, durable: false)
        let decoded = try #require(ReplayMaps.load(from: paths, tip: tip))
        #expect(decoded.bindings.dictionary() == records)
        #expect(decoded.identities == maps.identities)
        #expect(decoded.identities.shared.count == 1)
        #expect(decoded.revocations == state.maps.revocations)
        #expect(decoded.statusAttempts.map(\.ref) == state.maps.statusAttempts.map(\.ref))
        #expect(decoded.manifests.map(\.rawBytes) == state.maps.manifests.map(\.rawBytes))
        let parent = try #require(try repository.commit(tip).parents.first)
        #expect(ReplayMaps.load(from: paths, tip: parent) == nil)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: paths.small)))
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 997)) {
            #expect(ReplayMaps(smallFile: Array(bytes.prefix(length)), tip: tip) == nil, "cut at \(length)")
        }
        #expect(ReplayMaps(smallFile: bytes + [0], tip: tip) == nil)
        // A resumed state is the rebuilt one.
        var checkpoint = Checkpoint(of: state, tip: tip, trust: [], summary: summary)
        checkpoint.maps = ReplayMaps.load(from: paths, tip: tip)
        let resumed = try ReplayState.resumed(
            at: tip, from: checkpoint, repository: repository, trustRoot: TrustRoot(), now: state.now)
        #expect(resumed.maps.bindings.dictionary() == records)
        #expect(resumed.maps.identities == maps.identities)
    }

    /// The record index files round-trip the example's index (every record of its 75 mandates, 305 verdicts
    /// and receipts…) and are refused for any other tip or with one byte cut or changed.
    @Test func theRecordIndexFilesRoundTripAndNameTheirTip() throws {
        let repository = try Repository.open(ExampleLedgerTests.example.appendingPathComponent("ledger.git").path)
        let tip = try #require(try repository.referenceTarget(LedgerLayout.branch))
        let index = try repository.recordIndex(inCommit: tip)
        // + a compromise report, a revocation, two grants and their redemptions
        #expect(index.count == 1 + 2 + 75 + 305 + 305 + 1 + 1 + 2 + 2)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("index-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/records.table"
        try index.save(to: path, tip: tip, durable: false)
        #expect(RecordIndex.load(from: path, tip: tip) == index)
        let parent = try #require(try repository.commit(tip).parents.first)
        #expect(RecordIndex.load(from: path, tip: parent) == nil)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        try Data(bytes.dropLast()).write(to: URL(fileURLWithPath: path))
        #expect(RecordIndex.load(from: path, tip: tip) == nil)
        // A checkpoint carrying the index resumes to the state a full listing gives.
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var rebuilt = ReplayState(trustRoot: TrustRoot(), now: Instant.parse("2026-12-01T00:00:00Z")!)
        var summary = VerificationSummary()
        try rebuilt.restore(&summary, at: tip, repository: repository, checkpoint: nil)
        var checkpoint = Checkpoint(of: rebuilt, tip: tip, trust: [], summary: summary)
        checkpoint.records = RecordIndex.load(from: path, tip: tip)
        let resumed = try ReplayState.resumed(
            at: tip, from: checkpoint, repository: repository, trustRoot: TrustRoot(), now: rebuilt.now)
        #expect(resumed.records == rebuilt.records)
        #expect(resumed.records.lastBatch == index.lastBatch)
    }

    /// Appends judged from the state files (one process per append) find what a rebuild finds: an
    /// unauthorized write's conduct finding; a corrupt file is ignored and the state rebuilt.
    @Test func appendsFromTheStateFilesJudgeAsARebuildDoes() throws {
        let scenario = LedgerScenario()
        scenario.append([scenario.file(scenario.mandate())], at: "2026-08-09T00:00:00Z")
        let gitDirectory = scenario.ledger
        #expect(FileManager.default.fileExists(atPath: WriterStateFile.statePath(gitDirectory)))
        #expect(FileManager.default.fileExists(atPath: WriterStateFile.mapsPaths(gitDirectory).small))
        #expect(FileManager.default.fileExists(atPath: WriterStateFile.mapsPaths(gitDirectory).bindings))
        #expect(FileManager.default.fileExists(atPath: WriterStateFile.indexPath(gitDirectory)))
        // The JSON snapshot older versions kept is removed by the next save.
        let legacy = gitDirectory + "/onym-ledger-writer-replay.json"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: legacy))
        // A ban written with no verdict behind it: a conduct finding, judged from the files.
        let wrong = scenario.writeRequests([
            ("2026-08-10T00:00:00Z", "enrollment:device-1", "reconciliation", false, true, "ok")
        ])
        let fromFiles = scenario.append([wrong], at: "2026-08-10T01:00:00Z")
        #expect(fromFiles.stderr.contains("WriteReplayPolicy"), "\(fromFiles.stderr)")
        #expect(!FileManager.default.fileExists(atPath: legacy))
        // The same judgement with the files corrupted: rebuilt from the tree.
        try Data("{\"version\":2,\"checkpoint\":{}".utf8).write(
            to: URL(fileURLWithPath: WriterStateFile.statePath(gitDirectory)))
        let again = scenario.writeRequests([
            ("2026-08-11T00:00:00Z", "enrollment:device-1", "reconciliation", false, true, "ok")
        ])
        let rebuilt = scenario.append([again], at: "2026-08-11T01:00:00Z")
        #expect(rebuilt.stderr.contains("WriteReplayPolicy"), "\(rebuilt.stderr)")
        let verified = CLI.run(["verify", scenario.ledger, "--trust", scenario.signer + ".pub"])
        #expect(verified.status == 2, "\(verified.stdout)")
    }
}

/// A ledger appended one record at a time stays compact — append suggests `repack` once the
/// packs have doubled since the last one, and stops once it ran.
@Suite("Repack hint")
struct PackHintTests {
    @Test(arguments: [
        (10 << 20, 0, false),  // under the floor
        (20 << 20, 0, true),  // never repacked, over the floor
        (20 << 20, 12 << 20, false),  // not yet twice the repacked size
        (30 << 20, 12 << 20, true),
    ])
    func hintRule(_ packBytes: Int, _ repackedBytes: Int, _ hinted: Bool) {
        #expect((PackUsage.hint(packBytes: packBytes, repackedBytes: repackedBytes) != nil) == hinted)
    }

    @Test func appendSuggestsRepackUntilItRuns() throws {
        let scenario = LedgerScenario()
        let hinting = ["ONYM_LEDGER_PACK_HINT_BYTES": "1"]
        let first = CLI.run(
            [
                "append", scenario.ledger, "--signing-key", scenario.signer, "--at", "2026-08-09T00:00:00Z",
                scenario.file(scenario.mandate()),
            ], environment: hinting)
        #expect(first.status == 0)
        #expect(first.stderr.contains("hint: the ledger's packs hold"), "\(first.stderr)")
        let before = PackUsage.packBytes(gitDirectory: scenario.ledger)
        #expect(CLI.run(["repack", scenario.ledger]).status == 0)
        #expect(PackUsage.packBytes(gitDirectory: scenario.ledger) <= before)
        let second = CLI.run(
            [
                "append", scenario.ledger, "--signing-key", scenario.signer, "--at", "2026-08-10T00:00:00Z",
                scenario.file(scenario.mandate(binding: "enrollment:device-2")),
            ], environment: hinting)
        #expect(second.status == 0)
        #expect(!second.stderr.contains("hint:"), "\(second.stderr)")
    }
}

/// Errors keep their kind from libgit2 to the exit code, and the internal-error path is real.
@Suite("Writer errors to exit codes")
struct WriterErrorTests {
    @Test func aFaultTheWriterHasNoRuleForExits70AndWritesNothing() {
        let scenario = LedgerScenario()
        let tip = scenario.tip
        let arguments = [
            "append", scenario.ledger, "--signing-key", scenario.signer, "--at", "2026-08-09T00:00:00Z",
            scenario.file(scenario.mandate()),
        ]
        let faulted = CLI.run(arguments, environment: ["ONYM_LEDGER_UNSAFE_TEST_FAULT_AT": "afterValidation"])
        #expect(faulted.status == 70, "\(faulted.stderr)")
        #expect(faulted.stderr.contains("internal error (a bug; nothing was written)"), "\(faulted.stderr)")
        #expect(scenario.tip == tip)
        #expect(CLI.run(arguments).status == 0)
    }

    @Test func aLedgerGitCannotReadExits65WithLibgit2sWords() throws {
        let scenario = LedgerScenario()
        let packs = try FileManager.default.contentsOfDirectory(atPath: scenario.ledger + "/objects/pack")
            .filter { $0.hasSuffix(".pack") }
        #expect(!packs.isEmpty)
        for pack in packs {
            let path = scenario.ledger + "/objects/pack/" + pack
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        }
        let result = CLI.run([
            "append", scenario.ledger, "--signing-key", scenario.signer, "--at", "2026-08-09T00:00:00Z",
            scenario.file(scenario.mandate()),
        ])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains(": git: "), "\(result.stderr)")
    }
}

/// Append's JSON shape comes from the library (`AppendResult.json`).
@Suite("Append's JSON")
struct AppendJSONTests {
    @Test func appendPrintsTheLibrarysShape() throws {
        let scenario = LedgerScenario()
        let result = CLI.run([
            "append", scenario.ledger, "--signing-key", scenario.signer, "--at", "2026-08-09T00:00:00Z", "--json",
            scenario.file(scenario.mandate()),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try CanonicalJSON.parse(Array(result.stdout.utf8))
        guard case .object(let counts)? = object["counts"] else {
            Issue.record("no counts: \(result.stdout)")
            return
        }
        #expect(counts["mandates"] == .integer(1))
        #expect(counts["revocationRecords"] == .integer(0))
        #expect(counts["otherRecords"] == .integer(0))
        #expect(object["logSize"] == .integer(0))
        #expect(object["conductFindings"] == .array([]))
        #expect(object["commit"] == .string(scenario.tip))
    }
}
