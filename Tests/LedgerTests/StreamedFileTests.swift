import Foundation
import Testing

import LedgerFormat
@testable import LedgerStore
import LedgerVerifier

/// Large files of local state (a sorted table of a million entries) are streamed to their temporary file
/// rather than built whole in memory: the bytes must be exactly those appended — across the output's
/// buffer, past it, overwritten in place — and a write that fails leaves neither the file nor a temporary.
@Suite("Streamed file writes")
struct StreamedFileTests {
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("streamed-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func theFileHoldsExactlyWhatWasAppendedAndOverwritten() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var random = SeededGenerator(state: 20_261_202)
        let buffer = FileOutput.bufferSize
        // Pieces below, at and above the buffer's size, so every path through the output is taken.
        let sizes = [0, 1, 17, buffer - 1, 1, buffer, 3, buffer + 5, 1_000, 2 * buffer + 7, 64]
        var expected: [UInt8] = []
        var pieces: [[UInt8]] = []
        for size in sizes {
            let piece = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
            pieces.append(piece)
        }
        let patch: [UInt8] = Array("patched".utf8)
        let patchAt = buffer + 3
        try DurableFile.write(to: folder + "/out", mode: 0o600, durable: false) {
            (output) throws(DurableFile.WriteError) in
            try output.appendZeros(16)
            for piece in pieces { try output.append(piece) }
            try output.appendZeros(buffer + 9)
            try patch.withUnsafeBufferPointer { (bytes) throws(DurableFile.WriteError) in
                try output.overwrite(UnsafeRawBufferPointer(bytes), at: patchAt)
            }
            #expect(output.position == 16 + sizes.reduce(0, +) + buffer + 9)
        }
        expected = [UInt8](repeating: 0, count: 16) + pieces.flatMap { $0 } + [UInt8](repeating: 0, count: buffer + 9)
        expected.replaceSubrange(patchAt..<patchAt + patch.count, with: patch)
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/out")))
        #expect(written.count == expected.count)
        #expect(written == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out"])
    }

    @Test func aFailedWriteLeavesTheOldFileAndNoTemporary() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try DurableFile.write(Array("old".utf8), to: folder + "/out", mode: 0o600, durable: false)
        let failure = DurableFile.WriteError(path: folder + "/out", operation: "encode", errno: EINVAL)
        let thrown = #expect(throws: DurableFile.WriteError.self) {
            try DurableFile.write(to: folder + "/out", mode: 0o600, durable: false) {
                (output) throws(DurableFile.WriteError) in
                try output.appendZeros(3 * FileOutput.bufferSize)
                throw failure
            }
        }
        #expect(thrown?.operation == "encode")
        #expect(try String(contentsOfFile: folder + "/out", encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out"])
    }

    /// A table many times the output's buffer, read back by the map and by the independent reader of its
    /// documented bytes (`Tests/Interop/tablecheck.py`): the checksum combined from the parts' is the
    /// checksum of the file.
    @Test func aTableLargerThanTheBufferReadsBackEverywhere() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/big.table"
        typealias Map = LayeredMapTests.Map
        var map = Map()
        var model: [String: [UInt8]] = [:]
        for index in 0..<60_000 {
            let value = (0..<(index % 97)).map { UInt8(truncatingIfNeeded: index &* 31 &+ $0) }
            model["key-\(index * 7919 % 60_000)"] = value
            map.set("key-\(index * 7919 % 60_000)", value)
        }
        try map.save(to: path, tip: LayeredMapTests.tip(5), note: 9, durable: false)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > 3 * FileOutput.bufferSize)

        // Without the delta that records the table as checked, loading checks its checksum and offsets.
        try FileManager.default.removeItem(atPath: Map.deltaPath(path))
        let (loaded, note) = try #require(Map.load(from: path, tip: LayeredMapTests.tip(5)))
        #expect(loaded.baseCheckedWhole == true)
        #expect(note == 9 && loaded.dictionary() == model)

        let checker = ExampleLedgerTests.root.appendingPathComponent("Tests/Interop/tablecheck.py").path
        let run = runProcess("python3", [checker, path])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let entries = try #require(object["entries"] as? [[String: String]])
        #expect(entries.count == model.count)
        var read: [String: [UInt8]] = [:]
        for entry in entries {
            let key = String(decoding: LayeredMapTests.bytes(hex: entry["key"]!), as: UTF8.self)
            read[key] = LayeredMapTests.TestCodec.value(from: LayeredMapTests.bytes(hex: entry["value"]!), key: key)
        }
        #expect(read == model)
    }

    /// A full table written over a loaded one (the changes outgrew a delta) merges the loaded table's
    /// entries, copied as they are, with the changes: the same bytes as a map that never had a file writes.
    @Test func aFullTableOverALoadedOneHoldsTheSameBytes() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        typealias Map = LayeredMapTests.Map
        let path = folder + "/t.table"
        var model: [String: [UInt8]] = [:]
        var map = Map()
        for index in 0..<20_000 {
            model["k\(index * 7)"] = [UInt8(index % 256)]
            map.set("k\(index * 7)", [UInt8(index % 256)])
        }
        try map.save(to: path, tip: LayeredMapTests.tip(1), note: 0, durable: false)
        var (loaded, _) = try #require(Map.load(from: path, tip: LayeredMapTests.tip(1)))
        // More changes than a delta takes (a 32nd, or 4 096), fewer than a fold in memory (half).
        for index in 0..<6_000 {
            let key = index % 2 == 0 ? "k\(index * 7)" : "new\(index)"
            model[key] = [1, 2, UInt8(index % 256)]
            loaded.set(key, [1, 2, UInt8(index % 256)])
        }
        try loaded.save(to: path, tip: LayeredMapTests.tip(2), note: 0, durable: false)
        let delta = try #require(SortedTable.open(Map.deltaPath(path), kind: LayeredMapTests.TestCodec.kind))
        #expect(delta.header.count == 0 && delta.header.base == LayeredMapTests.tip(2))  // a new full table
        try Map(model).save(to: folder + "/plain.table", tip: LayeredMapTests.tip(2), note: 0, durable: false)
        #expect(
            FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: folder + "/plain.table"))
        let (reloaded, _) = try #require(Map.load(from: path, tip: LayeredMapTests.tip(2)))
        #expect(reloaded.dictionary() == model)
    }

    /// A save orders keys with each codec's `precedes`, not by encoding them: it must be the order of their
    /// bytes, or the table's binary search misses what it holds. Checked on keys that differ in every part.
    @Test func eachCodecOrdersKeysAsTheirBytes() {
        var random = SeededGenerator(state: 7)
        let codes = StoredRecords.kinds.map { $0.code } + [0xFF]
        var indexKeys: [RecordIndex.Key] = []
        for _ in 0..<400 {
            // Few distinct words, so keys often share their first bytes and differ later.
            let word = { [0, 1, UInt64.max, 1 << 63][Int.random(in: 0...3, using: &random)] }
            let address = ContentAddress(words: (word(), word(), word(), word()))
            let code = codes.randomElement(using: &random)!
            indexKeys.append(RecordIndex.Key(code: code, address: address))
        }
        for left in indexKeys.prefix(100) {
            for right in indexKeys {
                let bytes = SortedTable.compare(RecordIndex.Codec.bytes(of: left), RecordIndex.Codec.bytes(of: right))
                #expect(RecordIndex.Codec.precedes(left, right) == (bytes < 0))
            }
        }
        let strings: [WireString] = [
            "", "a", "ab", "b", "z", "é", "e\u{301}", "\u{FF61}", "𝄞", "a\u{0}", "Z", "~", "\u{7F}", "\u{212A}", "K",
        ]
        for left in strings {
            for right in strings {
                let bytes = SortedTable.compare(
                    BindingRecord.Codec.bytes(of: left), BindingRecord.Codec.bytes(of: right))
                #expect(BindingRecord.Codec.precedes(left, right) == (bytes < 0), "\(left) \(right)")
            }
        }
    }
}
