import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier
@testable import LedgerWriter

/// A 200-byte pack whose delta chain is cyclic (or based on itself) hung `verify` inside
/// libgit2 1.5. The verifier now reads every pack's delta structure first, and refuses such packs before
/// libgit2 reads a single object.
@Suite("Packs: cyclic and self-based deltas are refused before libgit2 reads them")
struct PackScanTests {
    /// A pack object: a delta on another object by id (`REF_DELTA`), on an earlier offset
    /// (`OFS_DELTA`, distance given raw), or a plain blob.
    enum Object {
        case refDelta(base: ObjectID)
        case ofsDelta(distance: Int)
        /// An `OFS_DELTA` whose distance is these bytes as they stand.
        case ofsDeltaBytes([UInt8])
        case blob
    }

    /// Pack bytes (version 2) and its version-2 index for `objects` named `ids` (checksums zero:
    /// the verifier refuses these packs before anything would check them).
    static func pack(_ objects: [(id: ObjectID, object: Object)]) -> (pack: [UInt8], index: [UInt8]) {
        var pack = Array("PACK".utf8) + [0, 0, 0, 2] + withUnsafeBytes(of: UInt32(objects.count).bigEndian, Array.init)
        var offsets: [ObjectID: Int] = [:]
        for (id, object) in objects {
            offsets[id] = pack.count
            switch object {
            case .blob: pack += [0x30 | 2, 0x78, 0x9C, 0x03, 0, 0, 0, 0, 0x01]  // type 3, size 2, zlib of ""
            case .refDelta(let base): pack += [0x70 | 4] + base.bytes + [0x78, 0x9C, 0x03, 0, 0, 0, 0, 0x01]
            case .ofsDelta(let distance):
                pack += [0x60 | 4, UInt8(distance & 0x7F)] + [0x78, 0x9C, 0x03, 0, 0, 0, 0, 0x01]
            case .ofsDeltaBytes(let distance): pack += [0x60 | 4] + distance + [0x78, 0x9C, 0x03, 0, 0, 0, 0, 0x01]
            }
        }
        pack += [UInt8](repeating: 0, count: 20)
        let sorted = objects.map(\.id).sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        var index: [UInt8] = [0xFF, 0x74, 0x4F, 0x63, 0, 0, 0, 2]
        for first in 0..<256 {
            let count = sorted.filter { Int($0.bytes[0]) <= first }.count
            index += withUnsafeBytes(of: UInt32(count).bigEndian, Array.init)
        }
        for id in sorted { index += id.bytes }
        for _ in sorted { index += [0, 0, 0, 0] }
        for id in sorted { index += withUnsafeBytes(of: UInt32(offsets[id]!).bigEndian, Array.init) }
        index += [UInt8](repeating: 0, count: 40)
        return (pack, index)
    }

    static func id(_ byte: UInt8) -> ObjectID { ObjectID(rawBytes: [UInt8](repeating: byte, count: 20))! }

    static func violation(_ objects: [(id: ObjectID, object: Object)]) -> String? {
        let (pack, index) = Self.pack(objects)
        return pack.withUnsafeBytes { packBytes in
            index.withUnsafeBytes { indexBytes in
                PackStructure.violation([("test.pack", packBytes, try! PackStructure.parseIndex(indexBytes))])
            }
        }
    }

    @Test func aRefDeltaCycleAndASelfBasedDeltaAreRefused() {
        let a = Self.id(0xAA)
        let b = Self.id(0xBB)
        #expect(Self.violation([(a, .refDelta(base: b)), (b, .refDelta(base: a))])?.contains("cyclic") == true)
        #expect(Self.violation([(a, .refDelta(base: a))])?.contains("cyclic") == true)
        #expect(Self.violation([(a, .ofsDelta(distance: 0))])?.contains("based on itself") == true)
        #expect(Self.violation([(a, .blob), (b, .ofsDelta(distance: 9))]) == nil)  // a well-formed delta
        #expect(Self.violation([(a, .blob), (b, .refDelta(base: a))]) == nil)
    }

    /// A distance of nine bytes is more than 64 bits can hold: it was read with the bits shifted out dropped
    /// (a wrong base, found only if it broke another rule); libgit2 refuses the overflow. Eight bytes reach
    /// 2^56, past any pack, so the ninth is refused as malformed.
    @Test func aDeltaDistanceTooLongForAnIntegerIsRefused() {
        let a = Self.id(0xAA)
        let b = Self.id(0xBB)
        let nine = [UInt8](repeating: 0xFF, count: 8) + [0x7F]
        let reason = Self.violation([(a, .blob), (b, .ofsDeltaBytes(nine))])
        #expect(reason?.contains("malformed delta offset") == true, "\(reason ?? "nil")")
        let eight = [UInt8](repeating: 0xFF, count: 7) + [0x7F]
        let far = Self.violation([(a, .blob), (b, .ofsDeltaBytes(eight))])
        #expect(far?.contains("based on itself or on a later object") == true, "\(far ?? "nil")")
    }

    @Test func chainsAreFollowedToTheDepthLimitAndRefusedPastIt() {
        func chain(_ deltas: Int) -> [(id: ObjectID, object: Object)] {
            let ids = (0...deltas).map { n in
                ObjectID(
                    rawBytes: withUnsafeBytes(of: UInt64(n + 1).bigEndian, Array.init)
                        + [UInt8](repeating: 7, count: 12))!
            }
            return [(ids[0], .blob)] + (1...deltas).map { (ids[$0], Object.refDelta(base: ids[$0 - 1])) }
        }
        // docs/VERIFY.md: a chain of more than 10 000 deltas is refused; one of exactly 10 000 is read.
        #expect(PackStructure.maxDeltaDepth == 10_000)
        #expect(Self.violation(chain(10_000)) == nil)
        #expect(Self.violation(chain(10_001))?.contains("longer than 10000 deltas") == true)
    }

    /// A REF_DELTA base is found in its own pack only (libgit2's `get_delta_base`). A cycle inside one pack
    /// was hidden when the scan resolved ids across packs: a full copy of the base in a pack whose name
    /// sorts first ended the chain the scan followed, while libgit2 follows the one in the same pack.
    @Test func aCycleInsideOnePackIsNotHiddenByACopyInAnother() throws {
        let x = Self.id(0xAA)
        let y = Self.id(0xBB)
        let (first, firstIndex) = Self.pack([(x, .blob)])
        let (second, secondIndex) = Self.pack([(y, .refDelta(base: x)), (x, .refDelta(base: y))])
        let reason = first.withUnsafeBytes { a in
            firstIndex.withUnsafeBytes { ai in
                second.withUnsafeBytes { b in
                    secondIndex.withUnsafeBytes { bi in
                        PackStructure.violation([
                            ("pack-1.pack", a, try! PackStructure.parseIndex(ai)),
                            ("pack-2.pack", b, try! PackStructure.parseIndex(bi)),
                        ])
                    }
                }
            }
        }
        #expect(reason?.contains("pack-2.pack") == true && reason?.contains("cyclic") == true, "\(reason ?? "nil")")
        // End to end: both packs in a ledger, the tip the object whose chain cycles. libgit2 would loop.
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        try Data(first).write(to: URL(fileURLWithPath: ledger + "/objects/pack/pack-1.pack"))
        try Data(firstIndex).write(to: URL(fileURLWithPath: ledger + "/objects/pack/pack-1.idx"))
        try Data(second).write(to: URL(fileURLWithPath: ledger + "/objects/pack/pack-2.pack"))
        try Data(secondIndex).write(to: URL(fileURLWithPath: ledger + "/objects/pack/pack-2.idx"))
        try (y.hex + "\n").write(toFile: ledger + "/refs/heads/main", atomically: true, encoding: .utf8)
        let result = TamperCorpusTests.verify(ledger)
        #expect(result.status == 1)
        let reasons = ((result.report["findings"] as? [[String: Any]]) ?? []).compactMap { $0["reason"] as? String }
        #expect(reasons.contains { $0.contains("cyclic") }, "\(reasons)")
    }

    /// An incremental run skips packs it scanned clean before (a 10^6-entry ledger's packs took seconds to
    /// scan on every run), known by file identity: a pack rewritten in place — same name, same size, its
    /// modification time set back — is scanned again, because its change time moved; `--full` scans all
    /// (and remembers the clean ones: the benchmark's incremental run after a full one scanned 643 MB again).
    @Test func packsScannedBeforeAreSkippedUntilTheirFilesChange() throws {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let (a, b, c, d) = (Self.id(0xA1), Self.id(0xB2), Self.id(0xC3), Self.id(0xD4))
        // Two packs of the same size: deltas on bases outside the pack (clean), and the same two as a cycle.
        let clean = Self.pack([(a, .refDelta(base: c)), (b, .refDelta(base: d))])
        let cyclic = Self.pack([(a, .refDelta(base: b)), (b, .refDelta(base: a))])
        #expect(clean.pack.count == cyclic.pack.count && clean.index.count == cyclic.index.count)
        let packPath = ledger + "/objects/pack/pack-extra.pack"
        let indexPath = ledger + "/objects/pack/pack-extra.idx"
        try Data(clean.pack).write(to: URL(fileURLWithPath: packPath))
        try Data(clean.index).write(to: URL(fileURLWithPath: indexPath))
        // Each verify runs three seconds ahead of the wall clock, so the files just written are past the
        // two-second racy window (FileIdentity) without sleeping through it.
        func run(_ extra: [String], state: String = scratch.path("state")) -> (
            status: Int32, report: [String: Any], stderr: String
        ) {
            let result = CLI.run(
                [
                    "verify", ledger, "--trust", TamperCorpusTests.trust, "--at", "2026-09-01T00:00:00Z", "--json",
                    "--state", state,
                ] + extra,
                environment: ["ONYM_LEDGER_TRACE": "1", "ONYM_LEDGER_UNSAFE_TEST_CLOCK_OFFSET_SECONDS": "3"])
            let report = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any] ?? [:]
            return (result.status, report, result.stderr)
        }
        let first = run([])
        #expect(first.status == 0, "\(first.stderr)")
        let packs = try FileManager.default.contentsOfDirectory(atPath: ledger + "/objects/pack").filter {
            $0.hasSuffix(".pack")
        }.count
        #expect(first.stderr.contains("pack scan: \(packs) of \(packs) packs scanned"), "\(first.stderr)")
        let second = run([])
        #expect(second.status == 0)
        #expect(second.stderr.contains("pack scan: 0 of \(packs) packs scanned"), "\(second.stderr)")
        #expect(run(["--full"]).stderr.contains("pack scan: \(packs) of \(packs) packs scanned"))
        // A first --full run remembers what it scanned clean, so the incremental run after it skips them.
        let fresh = scratch.path("fresh-state")
        #expect(run(["--full"], state: fresh).stderr.contains("pack scan: \(packs) of \(packs) packs scanned"))
        let afterFull = run([], state: fresh)
        #expect(afterFull.stderr.contains("pack scan: 0 of \(packs) packs scanned"), "\(afterFull.stderr)")
        // Rewritten in place (same inode, same size), modification time restored: scanned again, refused.
        let times = try FileManager.default.attributesOfItem(atPath: packPath)[.modificationDate] as! Date
        for (path, bytes) in [(packPath, cyclic.pack), (indexPath, cyclic.index)] {
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.write(contentsOf: Data(bytes))
            try handle.close()
            try FileManager.default.setAttributes([.modificationDate: times], ofItemAtPath: path)
        }
        let third = run([])
        #expect(third.status == 1, "\(third.stderr)")
        #expect(third.stderr.contains("pack scan: 1 of \(packs) packs scanned"), "\(third.stderr)")
        let reasons = ((third.report["findings"] as? [[String: Any]]) ?? []).compactMap { $0["reason"] as? String }
        #expect(reasons.contains { $0.contains("pack-extra.pack") && $0.contains("cyclic") }, "\(reasons)")
    }

    /// End to end: the cyclic pack dropped into a ledger, its first object made the tip. Before, verify
    /// hung forever; now it answers, REJECTED by RepositoryPolicy naming the cycle — under a watchdog, so a
    /// verify that hangs again fails the test instead of hanging the suite.
    @Test func verifyRefusesTheLedger() async throws {
        await failingIfHung {
            let scratch = ScratchDirectory()
            let ledger = TamperCorpusTests.copyOfGood(scratch)
            let a = Self.id(0xAA)
            let b = Self.id(0xBB)
            let (pack, index) = Self.pack([(a, .refDelta(base: b)), (b, .refDelta(base: a))])
            try Data(pack).write(to: URL(fileURLWithPath: ledger + "/objects/pack/pack-cyclic.pack"))
            try Data(index).write(to: URL(fileURLWithPath: ledger + "/objects/pack/pack-cyclic.idx"))
            try (a.hex + "\n").write(toFile: ledger + "/refs/heads/main", atomically: true, encoding: .utf8)
            let result = TamperCorpusTests.verify(ledger)
            #expect(result.status == 1)
            let findings = (result.report["findings"] as? [[String: Any]]) ?? []
            #expect(
                findings.contains {
                    $0["policy"] as? String == "RepositoryPolicy" && ($0["reason"] as? String ?? "").contains("cyclic")
                }, "\(findings)")
        }
    }

    /// What the scan releases behind it is dropped from memory, not from the mapping: the bytes read again
    /// are the file's (a private read-only mapping is refilled from its file, never zeroed).
    @Test func releasedPagesReadBackFromTheFile() throws {
        let scratch = ScratchDirectory()
        let path = scratch.path("file")
        let content = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        try Data(content).write(to: URL(fileURLWithPath: path))
        let mapped = try #require(MappedFile(path))
        #expect(Array(mapped.bytes) == content)
        mapped.release(below: 2 << 20)
        #expect(Array(mapped.bytes) == content)
        mapped.release(below: mapped.bytes.count + 4096)
        #expect(Array(mapped.bytes) == content)
    }
}
