import Foundation
import Testing

@testable import LedgerFormat
@testable import LedgerStore
@testable import LedgerVerifier

/// A verify run that keeps its growing state in tables past small limits (docs/DECISIONS.md, "A long run
/// keeps its growing state in tables") says what a run that holds it all in memory says: the same report,
/// the same saved state, the same bindings for the front ends — and leaves nothing in its folder.
@Suite("Memory limits", .serialized)
struct MemoryLimitsTests {
    static let now = Instant.parse("2026-12-01T00:00:00Z")!

    static func verify(_ ledger: String, trust: TrustRoot, state: String, memory: MemoryLimits) throws
        -> VerificationReport
    {
        var options = Verifier.Options(trustRoot: trust, now: now)
        options.stateRoot = state
        options.memory = memory
        return try Verifier.verify(path: ledger, options: options)
    }

    /// The report's `--json` without the state folder (each run has its own).
    static func json(_ report: VerificationReport) -> String {
        var object = report.json
        object.set("stateFolder", .null)
        return String(decoding: CanonicalJSON.encode(object), as: UTF8.self)
    }

    /// Every file a run left for the ledger in its state folder, by its path inside it — but the journal
    /// (times) and the tables' deltas (which record the full table's file identity: its inode). The pack
    /// scan's memory beside them is left out too: whether it records a pack depends on how long ago the
    /// pack's file changed (docs/VERIFY.md), not on the limits.
    static func files(under root: String) throws -> [String: Data] {
        var found: [String: Data] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: root))
        for case let relative as String in enumerator {
            var isFolder: ObjCBool = false
            let path = root + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                relative.hasPrefix("ledgers/"), !relative.hasSuffix("journal.jsonl"), !relative.hasSuffix(".delta")
            {
                found[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return found
    }

    /// The example ledger (every record kind, grants and a revocation) and a hostile copy of the fixture ledger
    /// (a gap in the write log: integrity and conduct findings), each verified with the default limits and
    /// with limits of one binding and eight records — a spill at nearly every change.
    @Test func aRunPastItsLimitsSaysTheSame() throws {
        let scratch = ScratchDirectory()
        let example = ExampleLedgerTests.copy(scratch)
        let exampleTrust = try TrustRoot.parse(String(contentsOfFile: ExampleLedgerTests.trust, encoding: .utf8))
        let hostile = TamperCorpusTests.copyOfGood(scratch)
        let attack = try #require(TamperCorpus.attacks.first { $0.name == "sequence gap" })
        attack.mutate(
            try Surgeon(path: hostile, keys: [FixtureLedger.signer1, FixtureLedger.signer2, TamperCorpus.stranger]))
        let fixtureTrust = TrustRoot(keys: [FixtureLedger.signer1.publicKey])
        let spill = scratch.path("spill")
        try FileManager.default.createDirectory(atPath: spill, withIntermediateDirectories: true)
        let small = MemoryLimits(folder: spill, records: 8, bindings: 1)

        for (name, ledger, trust) in [("example", example, exampleTrust), ("hostile", hostile, fixtureTrust)] {
            let inMemory = try Self.verify(
                ledger, trust: trust, state: scratch.path("\(name)-a"), memory: MemoryLimits())
            let inTables = try Self.verify(ledger, trust: trust, state: scratch.path("\(name)-b"), memory: small)
            #expect(Self.json(inTables) == Self.json(inMemory), "\(name)")
            #expect(inTables.failures.isEmpty == (name == "example"), "\(inTables.failures)")
            if name == "example" {
                // The small run did keep its bindings in a table, and the front ends read the same ones from it.
                let spilled = try #require(inTables.history?.bindingTable)
                let held = try #require(inMemory.history?.bindingTable)
                #expect(spilled.count > 1 && spilled.heldInMemory < spilled.count)
                #expect(spilled.dictionary() == held.dictionary())
            }
            let (filesA, filesB) = (
                try Self.files(under: scratch.path("\(name)-a")), try Self.files(under: scratch.path("\(name)-b"))
            )
            #expect(filesA == filesB)
            #expect(try FileManager.default.contentsOfDirectory(atPath: spill).isEmpty)
        }
    }

    /// A run past its limits continues from the state a run past its limits saved as one in memory does.
    @Test func aRunPastItsLimitsContinuesTheSame() throws {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let trust = TrustRoot(keys: [FixtureLedger.signer1.publicKey])
        let spill = scratch.path("spill")
        try FileManager.default.createDirectory(atPath: spill, withIntermediateDirectories: true)
        let small = MemoryLimits(folder: spill, records: 8, bindings: 1)
        _ = try Self.verify(ledger, trust: trust, state: scratch.path("a"), memory: MemoryLimits())
        _ = try Self.verify(ledger, trust: trust, state: scratch.path("b"), memory: small)
        let surgeon = try Surgeon(path: ledger, keys: [FixtureLedger.signer1, FixtureLedger.signer2])
        TamperCorpus.appendEntries(surgeon) { last in
            [TamperCorpus.write(7, after: last), TamperCorpus.write(8, after: TamperCorpus.write(7, after: last))]
        }
        let inMemory = try Self.verify(ledger, trust: trust, state: scratch.path("a"), memory: MemoryLimits())
        let inTables = try Self.verify(ledger, trust: trust, state: scratch.path("b"), memory: small)
        #expect(inTables.summary.resumedFrom != nil && inTables.summary.commitsChecked == 1)
        #expect(Self.json(inTables) == Self.json(inMemory))
        // (The saved files differ: a map that spilled saves a full table where the other saves a delta.)
        #expect(inTables.history?.bindingTable.dictionary() == inMemory.history?.bindingTable.dictionary())
        #expect(try FileManager.default.contentsOfDirectory(atPath: spill).isEmpty)
    }
}
