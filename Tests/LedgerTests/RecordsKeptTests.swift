import Foundation
import Testing

@testable import LedgerFormat
@testable import LedgerStore
@testable import LedgerVerifier

/// A record a commit stores is kept at hand for the references later commits make to it: the verifier's
/// loader keeps what `ReplayState.apply(_:)` just indexed (`RecordCache.keep(_:)`), decoded from the very
/// blob the index names, so a verdict that names a mandate an earlier commit stored finds it without
/// reading and decoding it again — and finds the same record a read would.
@Suite("Records kept for later references")
struct RecordsKeptTests {
    /// A loader of the example ledger, with a repository handle of its own.
    static func loader() throws -> CommitLoader {
        CommitLoader(repository: try Repository.open(LedgerSnapshotTests.gitDirectory), clock: PhaseClock())
    }

    /// The replay state before the example's first commit.
    static func exampleStart() throws -> ReplayState {
        let trust = try TrustRoot.parse(String(contentsOfFile: ExampleLedgerTests.trust, encoding: .utf8))
        return ReplayState(trustRoot: trust, now: Instant.parse("2026-12-01T00:00:00Z")!)
    }

    @Test func laterReferencesFindTheRecordsEarlierStepsIndexedWithoutReadingThem() throws {
        let (keeping, reading) = (try Self.loader(), try Self.loader())
        var state = try Self.exampleStart()
        var fromEarlierCommits = 0
        for (index, id) in CommitReadAheadTests.gitHistory().enumerated() {
            let kept = try keeping.finish(try keeping.read(id), index: index, state: state)
            let read = try reading.finish(try reading.read(id), index: index, state: state)
            let inCommit = Set(kept.files.compactMap { $0.storedRecord?.address })
            for (file, plain) in zip(kept.files, read.files) {
                let found = file.checks.references.storedForms
                let expected = plain.checks.references.storedForms
                #expect(found.map(\.code) == expected.map(\.code), "\(file.path)")
                #expect(found.map(\.address) == expected.map(\.address), "\(file.path)")
                #expect(found.map(\.bytes) == expected.map(\.bytes), "\(file.path)")
                fromEarlierCommits += found.filter { !inCommit.contains($0.address) }.count
                #expect(file.checks.signatures == plain.checks.signatures, "\(file.path)")
            }
            keeping.keep(state.apply(kept))
        }
        // The example's verdicts name mandates stored in earlier commits: a reading loader reads them from
        // git, the keeping one never does.
        #expect(fromEarlierCommits > 10)
        #expect(reading.lookup.reads > 10)
        #expect(keeping.lookup.reads == 0)
    }

    /// What `apply` returns for keeping is exactly what a later lookup would read: each record is the one
    /// the index now locates under the record's own kind and address, in the blob its file came from; a
    /// step applied twice returns nothing the second time (the index keeps the first batch to store a key).
    @Test func applyReturnsOnlyRecordsTheIndexNowLocatesInTheirOwnBlob() throws {
        let loader = try Self.loader()
        var state = try Self.exampleStart()
        var returned = 0
        for (index, id) in CommitReadAheadTests.gitHistory().enumerated() {
            let step = try loader.finish(try loader.read(id), index: index, state: state)
            let blobs = Dictionary(
                step.files.compactMap { file in
                    file.storedRecord.map { (RecordIndex.Key(type(of: $0), $0.address), file.blob) }
                },
                uniquingKeysWith: { first, _ in first })
            let indexed = state.apply(step)
            for record in indexed {
                let key = RecordIndex.Key(type(of: record), record.address)
                let location = state.records.location(of: key)
                #expect(location?.blob == blobs[key] ?? nil, "\(record.address.hex)")
                let stored = try Repository.open(LedgerSnapshotTests.gitDirectory).readBlob(
                    location!.blob, limit: Limits.maxRecordBytes)
                #expect(stored == record.storedBytes)
            }
            // Every record file of the example is new and named by its content: all are returned.
            #expect(indexed.count == step.files.filter { $0.storedRecord != nil && $0.batch != nil }.count)
            var again = state
            #expect(again.apply(step).isEmpty)
            returned += indexed.count
        }
        #expect(returned > 100)
    }

    /// The kinds kept are those another record may name in an earlier commit: not the verdict, which only
    /// its receipt names, and its receipt arrives in the verdict's own commit (reference §3.6).
    @Test func theKindsKeptAreThoseNamedAcrossCommits() {
        let kept = Set(StoredRecords.referencedAcrossCommits.compactMap { StoredRecords.kind(code: $0)?.kindName })
        #expect(kept == ["manifest", "mandate", "grant", "compromise-report", "status-attempt"])
    }
}
