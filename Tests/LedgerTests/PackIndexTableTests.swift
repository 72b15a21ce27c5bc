import Foundation
import LedgerTestSupport
import Testing

import LedgerStore

/// A pack index read in place (``PackIndex/Table``): what stock git lists for a pack it wrote, and the rules
/// for 8-byte offsets, which only packs past 2 GiB use, on indexes built here byte by byte.
@Suite("Pack index: read in place, against git verify-pack")
struct PackIndexTableTests {
    @Test func theTableListsWhatGitVerifyPackLists() throws {
        let scratch = ScratchDirectory()
        let repository = scratch.path("repo.git")
        #expect(runProcess("git", ["init", "--quiet", "--bare", repository]).status == 0)
        var ids: [String] = []
        for number in 0..<40 {
            let written = runProcess(
                "sh",
                [
                    "-c", "printf 'object %s\\n' \"$1\" | git --git-dir \"$0\" hash-object -w --stdin", repository,
                    "\(number)",
                ])
            ids.append(written.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let packed = runProcess(
            "sh",
            ["-c", "printf '%s\\n' \"$@\" | git --git-dir \"$0\" pack-objects -q \"$0/objects/pack/pack\"", repository]
                + ids)
        try #require(packed.status == 0, "\(packed.stderr)")
        let name = packed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let indexPath = "\(repository)/objects/pack/pack-\(name).idx"
        // git verify-pack -v: "<id> <type> <size> <size in pack> <offset>" for each object.
        let listed = runProcess("git", ["verify-pack", "-v", indexPath]).stdout.split(separator: "\n").compactMap {
            line -> (String, Int)? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 5, fields[0].count == 40, let offset = Int(fields[4]) else { return nil }
            return (String(fields[0]), offset)
        }
        #expect(listed.count == 40)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: indexPath)))
        let read = try bytes.withUnsafeBytes { raw in
            try PackIndex.Table(raw).map { entry in (ObjectID(rawBytes: entry.id.bytes)!.hex, entry.offset) }
        }
        #expect(read.map(\.0) == listed.map(\.0).sorted())
        #expect(Dictionary(uniqueKeysWithValues: read) == Dictionary(uniqueKeysWithValues: listed))
        #expect(try bytes.withUnsafeBytes { try PackIndex.Table($0).count } == 40)
    }

    /// A version-2 index of one object whose offset word is `word`, followed by the 8-byte offsets `large`.
    static func index(word: UInt32, large: [UInt64]) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0x74, 0x4F, 0x63, 0, 0, 0, 2]
        for _ in 0..<256 { bytes += withUnsafeBytes(of: UInt32(1).bigEndian, Array.init) }
        bytes += [UInt8](repeating: 0x11, count: 20)  // the id
        bytes += [0, 0, 0, 0]  // its CRC-32
        bytes += withUnsafeBytes(of: word.bigEndian, Array.init)
        for offset in large { bytes += withUnsafeBytes(of: offset.bigEndian, Array.init) }
        return bytes + [UInt8](repeating: 0, count: 40)  // the checksums
    }

    static func read(_ bytes: [UInt8]) -> Result<[Int], PackIndex.Malformed> {
        bytes.withUnsafeBytes { raw in
            Result { () throws(PackIndex.Malformed) in try PackIndex.Table(raw).map(\.offset) }
        }
    }

    @Test func eightByteOffsetsAreReadAndTheirSlotsAndSizesChecked() throws {
        // gitformat-pack: an offset word with the top bit set is the position of an 8-byte offset.
        #expect(try Self.read(Self.index(word: 0x8000_0001, large: [7, 1 << 33])).get() == [1 << 33])
        #expect(try Self.read(Self.index(word: 12, large: [])).get() == [12])
        // A slot past the table (the 40 checksum bytes are not offsets: here the table is empty and the
        // slot lies in them, so it is read — as git reads it — only when 8 bytes remain).
        let pastEnd = Self.read(Array(Self.index(word: 0x8000_0000, large: []).dropLast(40)))
        #expect((try? pastEnd.get()) == nil)
        if case .failure(let error) = pastEnd { #expect(error.reason == "a truncated pack index") }
        let huge = Self.read(Self.index(word: 0x8000_0000, large: [UInt64.max]))
        if case .failure(let error) = huge {
            #expect(error.reason == "an object offset past any pack")
        } else {
            Issue.record("an offset over Int.max was read")
        }
        let cut = Self.read(Array(Self.index(word: 12, large: []).prefix(8 + 256 * 4 + 10)))
        if case .failure(let error) = cut {
            #expect(error.reason == "a truncated pack index")
        } else {
            Issue.record("a cut index was read")
        }
        let notAnIndex = Self.read([UInt8](repeating: 0, count: 2000))
        if case .failure(let error) = notAnIndex {
            #expect(error.reason == "not a version-2 pack index")
        } else {
            Issue.record("zeros were read as an index")
        }
    }
}
