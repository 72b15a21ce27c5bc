import Foundation
import Testing

import LedgerFormat
@testable import LedgerStore

/// The local state that grows with the ledger (the record index, every binding's record) is a
/// sorted table mapped from its file plus the changes since, so a run that continues reads what it touches.
/// Checked against a plain dictionary through random changes, saves and loads (the oracle), and the
/// files against an independent reader of their documented bytes (`Tests/Interop/tablecheck.py`).
@Suite("Layered maps and sorted tables")
struct LayeredMapTests {
    /// Keys are short strings, values a few bytes whose first byte says how many follow.
    enum TestCodec: TableCodec {
        static var kind: String { "test" }
        static func bytes(of key: String) -> [UInt8] { Array(key.utf8) }
        static func key(from bytes: [UInt8]) -> String? { String(validating: bytes, as: UTF8.self) }
        static func bytes(of value: [UInt8]) -> [UInt8] { [UInt8(value.count)] + value }
        static func value(from bytes: [UInt8], key: String) -> [UInt8]? {
            bytes.first.map(Int.init) == bytes.count - 1 ? Array(bytes.dropFirst()) : nil
        }
    }

    typealias Map = LayeredMap<TestCodec>

    static func tip(_ number: Int) -> ObjectID {
        ObjectID(hexString: String(format: "%040x", number))!
    }

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tables-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test func agreesWithADictionaryThroughChangesSavesAndLoads() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/test.table"
        var random = SeededGenerator(state: 20_261_201)  // the same changes on every run
        var model: [String: [UInt8]] = [:]
        var map = Map()
        var deltas = 0
        var fulls = 0
        for round in 1...40 {
            // Mostly small rounds (a delta), now and then a large one (a fold in memory, a full table).
            let changes =
                round % 9 == 0
                ? Int.random(in: 9_000...20_000, using: &random) : Int.random(in: 0...600, using: &random)
            for _ in 0..<changes {
                let existing = !model.isEmpty && Bool.random(using: &random)
                let key = existing ? model.keys.randomElement(using: &random)! : "k\(random.next() % 1_000_000)"
                let value = (0..<Int.random(in: 0...6, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
                model[key] = value
                map.set(key, value)
                #expect(map[key] == value)
            }
            #expect(map.count == model.count)
            let before = FileIdentity.of(path: path)
            try map.save(to: path, tip: Self.tip(round), note: UInt64(round), durable: false)
            if FileIdentity.of(path: path) == before { deltas += 1 } else { fulls += 1 }
            // A later process: only the files.
            let (loaded, note) = try #require(Map.load(from: path, tip: Self.tip(round)))
            #expect(note == UInt64(round))
            #expect(loaded.count == model.count)
            #expect(loaded.dictionary() == model)
            #expect(Set(loaded.keys()) == Set(model.keys) && loaded.keys().count == model.count)
            for key in model.keys.prefix(50) { #expect(loaded[key] == model[key]) }
            #expect(loaded["absent"] == nil)
            #expect(Map.load(from: path, tip: Self.tip(10_000 + round)) == nil)
            map = loaded
        }
        // Both ways of saving were taken.
        #expect(deltas > 10 && fulls > 2, "deltas \(deltas), full tables \(fulls)")
    }

    @Test func anIndependentReaderFindsWhatTheMapHolds() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/test.table"
        var map = Map()
        var model: [String: [UInt8]] = [:]
        for index in 0..<5_000 {
            model["key-\(index)"] = [UInt8(index % 251), 7]
            map.set("key-\(index)", [UInt8(index % 251), 7])
        }
        try map.save(to: path, tip: Self.tip(1), note: 42, durable: false)
        var (loaded, _) = try #require(Map.load(from: path, tip: Self.tip(1)))
        for index in 0..<300 {
            model["key-\(index * 7)"] = [1, 2, 3]
            loaded.set("key-\(index * 7)", [1, 2, 3])
            model["new-\(index)"] = []
            loaded.set("new-\(index)", [])
        }
        try loaded.save(to: path, tip: Self.tip(2), note: 43, durable: false)
        #expect(Self.exists(Map.deltaPath(path)))

        let checker = ExampleLedgerTests.root.appendingPathComponent("Tests/Interop/tablecheck.py").path
        func read(_ file: String) throws -> (header: [String: Any], entries: [String: [UInt8]]) {
            let run = runProcess("python3", [checker, file])
            #expect(run.status == 0, "\(run.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            var entries: [String: [UInt8]] = [:]
            for entry in try #require(object["entries"] as? [[String: String]]) {
                let key = String(decoding: Self.bytes(hex: entry["key"]!), as: UTF8.self)
                entries[key] = TestCodec.value(from: Self.bytes(hex: entry["value"]!), key: key)
            }
            return (object, entries)
        }
        let full = try read(path)
        let delta = try read(Map.deltaPath(path))
        #expect(full.header["tip"] as? String == Self.tip(1).hex && full.header["base"] is NSNull)
        #expect(full.header["note"] as? Int == 42 && full.header["kind"] as? String == "test")
        #expect(delta.header["tip"] as? String == Self.tip(2).hex)
        #expect(delta.header["base"] as? String == Self.tip(1).hex && delta.header["note"] as? Int == 43)
        #expect(full.entries.merging(delta.entries) { $1 } == model)
        #expect(delta.entries.count == 600)
        #expect(full.header["mapEntries"] as? Int == 5_000 && delta.header["mapEntries"] as? Int == model.count)

        // The next save carries the loaded delta's entries over (copied as they are) with its own changes.
        var (again, _) = try #require(Map.load(from: path, tip: Self.tip(2)))
        for index in 0..<100 {
            model["key-\(index * 7)"] = [4]
            again.set("key-\(index * 7)", [4])
            model["newer-\(index)"] = [5, 6]
            again.set("newer-\(index)", [5, 6])
        }
        try again.save(to: path, tip: Self.tip(3), note: 44, durable: false)
        let carried = try read(Map.deltaPath(path))
        #expect(
            carried.header["base"] as? String == Self.tip(1).hex && carried.header["tip"] as? String == Self.tip(3).hex)
        #expect(full.entries.merging(carried.entries) { $1 } == model)
        #expect(carried.entries.count == 700 && carried.header["mapEntries"] as? Int == model.count)

        // The checker refuses a table whose checksum does not match (so its "ok" means something).
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count / 2] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/damaged"))
        #expect(runProcess("python3", [checker, folder + "/damaged"]).status == 1)
    }

    /// A map of `count` keys saved as a full table at tip 1 in a fresh folder (removed by the caller).
    static func savedTable(_ count: Int) throws -> (folder: String, path: String, map: Map) {
        let folder = try Self.folder()
        let path = folder + "/test.table"
        var map = Map()
        for index in 0..<count { map.set("key-\(index)", [UInt8(index % 200)]) }
        try map.save(to: path, tip: Self.tip(1), note: 0, durable: false)
        return (folder, path, map)
    }

    @Test func damagedOrMismatchedFilesDoNotLoad() throws {
        let (folder, path, _) = try Self.savedTable(2_000)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let full = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        func write(_ bytes: [UInt8], _ file: String = path) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: file))
        }
        for length in stride(from: 0, to: full.count, by: max(1, full.count / 499)) {
            try write(Array(full.prefix(length)))
            #expect(Map.load(from: path, tip: Self.tip(1)) == nil, "cut at \(length)")
        }
        for position in stride(from: 0, to: full.count, by: max(1, full.count / 199)) {
            var flipped = full
            flipped[position] ^= 0x20
            try write(flipped)
            #expect(Map.load(from: path, tip: Self.tip(1)) == nil, "byte \(position) changed")
        }
        try write(full)
        var (loaded, _) = try #require(Map.load(from: path, tip: Self.tip(1)))
        loaded.set("key-1", [9])
        try loaded.save(to: path, tip: Self.tip(2), note: 0, durable: false)
        #expect(Map.load(from: path, tip: Self.tip(2))?.map["key-1"] == [9])
        // A full table of another tip under the delta: they do not fit together.
        var other = Map()
        other.set("x", [1])
        try other.save(to: folder + "/other.table", tip: Self.tip(7), note: 0, durable: false)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: folder + "/other.table", toPath: path)
        #expect(Map.load(from: path, tip: Self.tip(2)) == nil)
        // A table of another kind is not this one.
        #expect(SortedTable.open(path, kind: "records") == nil)
    }

    /// A full table is recorded (by its file identity) in the delta by the run that wrote it, or by a run
    /// that checked it whole once it was two seconds old; the next load reads only its header. A table
    /// changed since — even one byte, written in place — is checked whole again and refused when damaged.
    @Test func aFullTableCheckedOnceIsTrustedUntilItChanges() throws {
        let (folder, path, map) = try Self.savedTable(3_000)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Written by this run: trusted at once.
        var (loaded, _) = try #require(Map.load(from: path, tip: Self.tip(1)))
        #expect(loaded.baseCheckedWhole == false)
        #expect(loaded.dictionary() == map.dictionary())
        // The same bytes put in place by someone else (a copy renamed over it): checked whole, and too recent
        // for the check to be recorded.
        try FileManager.default.copyItem(atPath: path, toPath: path + ".copy")
        #expect(rename(path + ".copy", path) == 0)
        (loaded, _) = try #require(Map.load(from: path, tip: Self.tip(1)))
        #expect(loaded.baseCheckedWhole == true)
        try loaded.save(to: path, tip: Self.tip(1), note: 0, durable: false)
        (loaded, _) = try #require(Map.load(from: path, tip: Self.tip(1)))
        #expect(loaded.baseCheckedWhole == true)
        // Two seconds later the check is recorded with the next save, and trusted by the load after it (the
        // clock moved three seconds on, not slept through).
        let trusted = try FileIdentity.$clockOffsetSeconds.withValue(3) {
            (loaded, _) = try #require(Map.load(from: path, tip: Self.tip(1)))
            #expect(loaded.baseCheckedWhole == true)
            loaded.set("key-5", [77])
            try loaded.save(to: path, tip: Self.tip(2), note: 0, durable: false)
            return try #require(Map.load(from: path, tip: Self.tip(2)))
        }
        #expect(trusted.map.baseCheckedWhole == false)
        #expect(trusted.map.dictionary() == map.dictionary().merging(["key-5": [77]]) { $1 })
        // One byte changed in place: another identity (its change time moved), so checked whole and refused.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 200_00)
        let byte = try #require(try handle.read(upToCount: 1))
        try handle.seek(toOffset: 200_00)
        try handle.write(contentsOf: Data([byte[0] ^ 0x01]))
        try handle.close()
        #expect(Map.load(from: path, tip: Self.tip(2)) == nil)
    }

    /// A value of this codec counts its decodings: what a load reads of its files.
    enum CountingCodec: TableCodec {
        nonisolated(unsafe) static var decoded = 0
        static var kind: String { "counting" }
        static func bytes(of key: String) -> [UInt8] { Array(key.utf8) }
        static func key(from bytes: [UInt8]) -> String? { String(validating: bytes, as: UTF8.self) }
        static func bytes(of value: [UInt8]) -> [UInt8] { value }
        static func value(from bytes: [UInt8], key: String) -> [UInt8]? {
            decoded += 1
            return bytes
        }
    }

    /// A run that continues reads what it touches: loading the files (full table and delta) decodes
    /// none of their values, a lookup decodes the one it finds, and a save copies the delta's entries
    /// without decoding them. (A delta decoded whole at every load made each single append at 10^6 write
    /// entries cost 59–71 ms instead of 28 ms with a 3 900-binding delta: BENCHMARKS.md.)
    @Test func loadingAndSavingADeltaDecodesOnlyWhatIsLookedUp() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/c.table"
        var map = LayeredMap<CountingCodec>()
        for index in 0..<5_000 { map.set("key-\(index)", [1]) }
        try map.save(to: path, tip: Self.tip(1), note: 0, durable: false)
        var (loaded, _) = try #require(LayeredMap<CountingCodec>.load(from: path, tip: Self.tip(1)))
        for index in 0..<1_000 { loaded.set("delta-\(index)", [2]) }
        try loaded.save(to: path, tip: Self.tip(2), note: 0, durable: false)
        #expect(FileManager.default.fileExists(atPath: LayeredMap<CountingCodec>.deltaPath(path)))

        CountingCodec.decoded = 0
        var (continued, _) = try #require(LayeredMap<CountingCodec>.load(from: path, tip: Self.tip(2)))
        #expect(CountingCodec.decoded == 0 && continued.count == 6_000)
        #expect(continued["delta-500"] == [2] && continued["key-7"] == [1] && continued["absent"] == nil)
        #expect(CountingCodec.decoded == 2)
        continued.set("delta-500", [3])
        continued.set("one-more", [4])
        try continued.save(to: path, tip: Self.tip(3), note: 0, durable: false)
        #expect(CountingCodec.decoded == 2)
        let (last, _) = try #require(LayeredMap<CountingCodec>.load(from: path, tip: Self.tip(3)))
        #expect(last.count == 6_001 && last["delta-500"] == [3] && last["delta-999"] == [2] && last["one-more"] == [4])
    }

    /// A map with a spill limit holds at most that many entries in memory: past it, everything goes to a
    /// table in the spill folder (removed once opened) and is read from there with `pread`, never mapped.
    /// Checked against a dictionary through inserts and updates of values of every length (blocks of
    /// entries read whole), sets only when absent, every key and keys it does not hold, a copy taken before
    /// a spill, and a save and load after spills.
    @Test func aMapPastItsSpillLimitKeepsItsEntriesInATable() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let spillFolder = folder + "/spill"
        try FileManager.default.createDirectory(atPath: spillFolder, withIntermediateDirectories: true)
        var random = SeededGenerator(state: 20_261_203)
        var map = Map()
        map.spill = Map.Spill(folder: spillFolder, limit: 300)
        var model: [String: [UInt8]] = [:]
        var copy: (map: Map, model: [String: [UInt8]])?
        var mostHeld = 0
        for step in 0..<5_000 {
            let existing = !model.isEmpty && Int.random(in: 0..<3, using: &random) == 0
            let key = existing ? model.keys.randomElement(using: &random)! : "k\(random.next() % 100_000)"
            let value = (0..<(step % 40)).map { UInt8(truncatingIfNeeded: step &+ $0) }
            if step % 7 == 0 {
                // Set only when absent: says whether it did.
                #expect(map.setIfAbsent(key, value) == (model[key] == nil))
                if model[key] == nil { model[key] = value }
            } else {
                model[key] = value
                map.set(key, value)
            }
            mostHeld = max(mostHeld, map.heldInMemory)
            if step == 1_000 { copy = (map, model) }
            if step % 500 == 0 { map.releasePages() }
        }
        #expect(mostHeld < 300)
        #expect(map.count == model.count && map.dictionary() == model)
        #expect(model.keys.allSatisfy { map[$0] == model[$0] })
        let absent = ["", "a", "k", "k-", "zzz"] + (0..<200).map { "k\($0 * 7 + 100_000)" }
        #expect(absent.allSatisfy { map[$0] == nil })
        #expect(try FileManager.default.contentsOfDirectory(atPath: spillFolder).isEmpty)
        // Read, not mapped: no mapping of a spill file is left in the process.
        let maps = String(decoding: try #require(DurableFile.read("/proc/self/maps")), as: UTF8.self)
        #expect(!maps.contains(spillFolder))
        let earlier = try #require(copy)
        #expect(earlier.map.dictionary() == earlier.model)
        // Saved after spilling: a full table of everything (never a delta over the removed spill file).
        let path = folder + "/spilled.table"
        try map.save(to: path, tip: Self.tip(1), note: 5, durable: false)
        let (loaded, note) = try #require(Map.load(from: path, tip: Self.tip(1)))
        #expect(note == 5 && loaded.count == model.count && loaded.dictionary() == model)
    }

    @Test func copiesAreIndependentValues() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var original = Map()
        for index in 0..<100 { original.set("key-\(index)", [1]) }
        try original.save(to: folder + "/t.table", tip: Self.tip(1), note: 0, durable: false)
        let (mapped, _) = try #require(Map.load(from: folder + "/t.table", tip: Self.tip(1)))
        for base in [original, mapped] {
            var copy = base
            copy.set("key-1", [2])
            copy.set("new", [3])
            #expect(base["key-1"] == [1] && base["new"] == nil && base.count == 100)
            #expect(copy["key-1"] == [2] && copy["new"] == [3] && copy.count == 101)
        }
    }

    static func bytes(hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return out
    }
}
