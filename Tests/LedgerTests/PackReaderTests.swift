import Foundation
import Testing

@testable import LedgerStore
@testable import LedgerVerifier
import LedgerWriter

/// The verifier reads packs with its own reader (`pread`, never mapped): every object of repositories stock
/// git packed every way it packs — deltas on an offset and on an id, chains, large objects, 64-bit offsets,
/// several packs beside loose objects — is read back exactly as `git cat-file` prints it; a damaged pack is
/// an error naming the pack, never a crash or a wrong object.
@Suite("Packs read with pread agree with stock git")
struct PackReaderTests {
    /// A repository of 40 commits over files that change a little each time (so git stores deltas), a
    /// 300 KB file edited twice (a delta longer than the reader's window), an empty file and an annotated
    /// tag; `gc --aggressive` packs it. `options` are git's, for the repack.
    static func stockRepository(_ scratch: borrowing ScratchDirectory, _ name: String, repack: [String]) -> String {
        let path = scratch.path(name)
        let git = { (arguments: [String]) in
            let result = runProcess(
                "git",
                ["-C", path, "-c", "user.name=T", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"]
                    + arguments)
            precondition(result.status == 0, "git \(arguments): \(result.stderr)")
        }
        _ = runProcess("git", ["init", "-q", "-b", "main", path])
        var generator = SystemRandomNumberGenerator()
        let large = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for commit in 0..<40 {
            for file in 0..<6 {
                let lines = (0..<(60 + commit)).map { "file \(file) line \($0) of a record that grows \(commit % 7)" }
                try! lines.joined(separator: "\n").write(
                    toFile: path + "/f\(file).txt", atomically: true, encoding: .utf8)
            }
            if commit % 20 == 0 {
                var edited = large
                edited[1000 + commit] ^= 0xFF
                try! Data(edited).write(to: URL(fileURLWithPath: path + "/large.bin"))
            }
            if commit == 0 { FileManager.default.createFile(atPath: path + "/empty", contents: Data()) }
            git(["add", "-A"])
            git(["commit", "-q", "-m", "commit \(commit)"])
        }
        git(["tag", "-a", "-m", "a tag", "v1"])
        git(["gc", "-q", "--aggressive"])
        if !repack.isEmpty { git(repack) }
        return path + "/.git"
    }

    /// Every object stock git lists, with its type, size and bytes from `git cat-file --batch`.
    static func stockObjects(_ gitDirectory: String) -> [(id: String, type: String, bytes: Data)] {
        let list = runProcess(
            "git", ["--git-dir", gitDirectory, "cat-file", "--batch-all-objects", "--batch-check=%(objectname)"])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["--git-dir", gitDirectory, "cat-file", "--batch"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try! process.run()
        DispatchQueue.global().async {
            input.fileHandleForWriting.write(Data(list.stdout.utf8))
            try? input.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var objects: [(String, String, Data)] = []
        var position = data.startIndex
        while position < data.endIndex {
            let lineEnd = data[position...].firstIndex(of: 0x0A)!
            let fields = String(decoding: data[position..<lineEnd], as: UTF8.self).split(separator: " ")
            let size = Int(fields[2])!
            objects.append((String(fields[0]), String(fields[1]), data[(lineEnd + 1)..<(lineEnd + 1 + size)]))
            position = lineEnd + 1 + size + 1
        }
        return objects
    }

    /// Reads every object through `Repository.openForReading` and compares it with stock git's: with the
    /// packs' offsets read when needed and kept once read (the verifier's reading thread), in stock git's
    /// order and backwards.
    static func expectAgreement(
        _ gitDirectory: String, objects: [(id: String, type: String, bytes: Data)]? = nil
    ) throws {
        let objects = objects ?? stockObjects(gitDirectory)
        #expect(objects.count > 200)
        let types = ["commit": 1, "tree": 2, "blob": 3, "tag": 4]
        for keepingOffsets in [false, true] {
            let repository = try Repository.openForReading(gitDirectory, keepingOffsets: keepingOffsets)
            // Enough rounds that the packs read their prefix tables (`PackFile.prefixTableAfter`) part way.
            let rounds = keepingOffsets ? PackFile.prefixTableAfter(1) / objects.count + 2 : 1
            for object in (0..<rounds).flatMap({ _ in objects + objects.reversed() }) {
                let read = try repository.anyObject(ObjectID(hexString: object.id)!)
                #expect(read.type == types[object.type] && read.header.type == read.type, "\(object.id)")
                #expect(read.header.size == object.bytes.count, "\(object.id) \(object.type)")
                #expect(Data(read.bytes) == object.bytes, "\(object.id) \(object.type)")
                try expectBlobWithin(repository, object)
            }
        }
        #expect(objects.contains { $0.type == "tag" } && objects.contains { $0.bytes.count > 200_000 })
    }

    /// `Repository.readBlob(_:within:)`, the verifier's one read of a blob and its size, gives stock git's
    /// bytes within a limit and the size alone over it, and refuses any other kind of object.
    static func expectBlobWithin(_ repository: Repository, _ object: (id: String, type: String, bytes: Data)) throws {
        let id = ObjectID(hexString: object.id)!
        guard object.type == "blob" else {
            #expect(throws: GitError.self) { try repository.readBlob(id, within: .max) }
            return
        }
        guard case .bytes(let bytes) = try repository.readBlob(id, within: object.bytes.count) else {
            Issue.record("\(object.id): over a limit of its own size")
            return
        }
        #expect(Data(bytes) == object.bytes, "\(object.id)")
        if !object.bytes.isEmpty {
            guard case .tooLarge(let size) = try repository.readBlob(id, within: object.bytes.count - 1) else {
                Issue.record("\(object.id): read past its limit")
                return
            }
            #expect(size == object.bytes.count)
        }
    }

    /// How many objects of each kind the repository's packs store (from the packs' bytes).
    static func deltaKinds(_ gitDirectory: String) throws -> (offset: Int, id: Int, whole: Int) {
        var counts = (offset: 0, id: 0, whole: 0)
        let folder = gitDirectory + "/objects/pack/"
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".idx") {
            let index = try Data(contentsOf: URL(fileURLWithPath: folder + name))
            let pack = try Data(contentsOf: URL(fileURLWithPath: folder + name.dropLast(4) + ".pack"))
            try index.withUnsafeBytes { indexBytes in
                try pack.withUnsafeBytes { packBytes in
                    for entry in try PackStructure.parseIndex(indexBytes) {
                        switch try PackStructure.base(in: packBytes, at: entry.offset) {
                        case .offset: counts.offset += 1
                        case .id: counts.id += 1
                        case .none: counts.whole += 1
                        }
                    }
                }
            }
        }
        return counts
    }

    @Test func deltasOnOffsetsAndChainsReadAsStockGitPrintsThem() throws {
        let scratch = ScratchDirectory()
        let repository = Self.stockRepository(scratch, "ofs", repack: [])
        let kinds = try Self.deltaKinds(repository)
        #expect(kinds.offset > 50 && kinds.id == 0, "\(kinds)")
        try Self.expectAgreement(repository)
    }

    @Test func deltasOnIdsReadAsStockGitPrintsThem() throws {
        let scratch = ScratchDirectory()
        let repository = Self.stockRepository(
            scratch, "ref", repack: ["-c", "repack.usedeltabaseoffset=false", "repack", "-q", "-a", "-d", "-f"])
        let kinds = try Self.deltaKinds(repository)
        #expect(kinds.id > 50 && kinds.offset == 0, "\(kinds)")
        try Self.expectAgreement(repository)
    }

    /// `index-pack --index-version=2,64` gives every object past byte 64 a 64-bit offset (git writes them
    /// only past 2 GiB otherwise).
    @Test func largeOffsetsReadAsStockGitPrintsThem() throws {
        let scratch = ScratchDirectory()
        let repository = Self.stockRepository(scratch, "large", repack: [])
        let folder = repository + "/objects/pack/"
        let pack = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".pack") })
        let index = folder + pack.dropLast(5) + ".idx"
        let before = try FileManager.default.attributesOfItem(atPath: index)[.size] as! Int
        try FileManager.default.removeItem(atPath: index)
        let indexed = runProcess("git", ["index-pack", "--index-version=2,64", folder + pack])
        #expect(indexed.status == 0, "\(indexed.stderr)")
        let after = try FileManager.default.attributesOfItem(atPath: index)[.size] as! Int
        #expect(after > before + 8 * 200, "the index holds no large offsets")
        try Self.expectAgreement(repository)
    }

    /// Objects in three packs and loose: the reader finds each in its pack, libgit2's loose backend the rest,
    /// and a pack written after the repository was opened is found (libgit2 asks the backend to refresh).
    @Test func severalPacksLooseObjectsAndAPackWrittenLaterAreAllFound() throws {
        let scratch = ScratchDirectory()
        let repository = Self.stockRepository(scratch, "many", repack: [])
        let work = scratch.path("many")
        for round in 0..<3 {
            try "round \(round)\n".write(toFile: work + "/round.txt", atomically: true, encoding: .utf8)
            _ = runProcess("git", ["-C", work, "add", "-A"])
            _ = runProcess(
                "git",
                ["-C", work, "-c", "user.name=T", "-c", "user.email=t@e", "commit", "-q", "-m", "round \(round)"])
            if round < 2 { _ = runProcess("git", ["-C", work, "repack", "-q"]) }  // a new pack of the loose objects
        }
        let packs = try FileManager.default.contentsOfDirectory(atPath: repository + "/objects/pack").filter {
            $0.hasSuffix(".pack")
        }
        #expect(packs.count == 3)
        try Self.expectAgreement(repository)

        let opened = try Repository.openForReading(repository)
        let before = try #require(try Repository.open(repository).referenceTarget("refs/heads/main"))
        #expect(try opened.contains(before))
        try "later\n".write(toFile: work + "/later.txt", atomically: true, encoding: .utf8)
        _ = runProcess("git", ["-C", work, "add", "-A"])
        _ = runProcess("git", ["-C", work, "-c", "user.name=T", "-c", "user.email=t@e", "commit", "-q", "-m", "later"])
        _ = runProcess("git", ["-C", work, "repack", "-q", "-a", "-d"])  // every pack replaced by a new one
        let later = try #require(try Repository.open(repository).referenceTarget("refs/heads/main"))
        #expect(try opened.anyObject(later).type == 1)
    }

    /// Damage in a pack is an error naming the pack, whatever the damage: bytes of a zlib stream flipped,
    /// the pack cut short.
    @Test func aDamagedPackIsAnErrorNamingIt() throws {
        let scratch = ScratchDirectory()
        let repository = Self.stockRepository(scratch, "damaged", repack: [])
        let folder = repository + "/objects/pack/"
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".pack") })
        let name = String(file.dropLast(5))
        let original = try Data(contentsOf: URL(fileURLWithPath: folder + file))
        let ids = Self.stockObjects(repository).map { ObjectID(hexString: $0.id)! }
        func readAll() -> [String] {
            guard let opened = try? Repository.openForReading(repository) else { return ["cannot open"] }
            return ids.compactMap { id in
                do {
                    _ = try opened.anyObject(id)
                    return nil
                } catch { return "\(error)" }
            }
        }
        #expect(readAll().isEmpty)
        // Flip bytes through the middle of the pack: some objects no longer inflate, or no longer hash.
        var flipped = original
        for position in stride(from: original.count / 3, to: original.count - 40, by: 997) { flipped[position] ^= 0x55 }
        try? FileManager.default.removeItem(atPath: folder + file)
        try flipped.write(to: URL(fileURLWithPath: folder + file))
        let flippedErrors = readAll()
        #expect(!flippedErrors.isEmpty)
        #expect(
            flippedErrors.allSatisfy { $0.contains(name) || $0.contains("hash mismatch") }, "\(flippedErrors.prefix(3))"
        )
        #expect(flippedErrors.contains { $0.contains(name) }, "\(flippedErrors.prefix(3))")
        // Cut short (trailer kept, so the index still matches): objects past the cut are unreadable.
        var cut = original.prefix(original.count / 2)
        cut.append(original.suffix(20))
        try FileManager.default.removeItem(atPath: folder + file)
        try cut.write(to: URL(fileURLWithPath: folder + file))
        let cutErrors = readAll()
        #expect(!cutErrors.isEmpty && cutErrors.allSatisfy { $0.contains(name) }, "\(cutErrors.prefix(3))")
    }

    /// The point of the reader: nothing of the packs is mapped into the process (libgit2's own backend maps
    /// every index whole and windows of the packs, whose pages stay resident). The control maps the index
    /// itself, so a check that could not see a mapping fails; libgit2's backend is not the control, since
    /// under a full parallel run its process-wide window limit may have unmapped the pack already.
    @Test func readingMapsNothingOfThePacks() throws {
        let scratch = ScratchDirectory()
        let repository = Self.stockRepository(scratch, "unmapped", repack: [])
        let ids = Self.stockObjects(repository).map { ObjectID(hexString: $0.id)! }
        func packMappings() throws -> Int {
            // Read to its end (a read sized by the file's status stops short: /proc files report 0 bytes).
            let maps = String(decoding: try #require(DurableFile.read("/proc/self/maps")), as: UTF8.self)
            return maps.split(separator: "\n").filter { $0.contains(scratch.path("unmapped")) }.count
        }
        let folder = repository + "/objects/pack/"
        let index = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".idx") })
        do {
            let control = try #require(MappedFile(folder + index))
            let mappedByTheControl = try packMappings()
            withExtendedLifetime(control) {}
            #expect(mappedByTheControl > 0)
        }  // the control unmapped here
        let opened = try Repository.openForReading(repository)
        for id in ids { _ = try opened.anyObject(id) }
        let mappedByTheReader = try packMappings()
        withExtendedLifetime(opened) {}
        #expect(mappedByTheReader == 0)
    }

    /// A pack that cannot be opened (here an index that is not its pack's) is passed over as libgit2's pack
    /// backend passes over it: the other packs and the loose objects are read, and an absent object is
    /// absent — not "found" because an error came back where libgit2 expects 0 or 1.
    @Test func aPackThatCannotBeOpenedIsPassedOver() throws {
        let scratch = ScratchDirectory()
        let repository = Self.stockRepository(scratch, "stray", repack: [])
        let work = scratch.path("stray")
        try "loose\n".write(toFile: work + "/loose.txt", atomically: true, encoding: .utf8)
        _ = runProcess("git", ["-C", work, "add", "-A"])
        _ = runProcess("git", ["-C", work, "-c", "user.name=T", "-c", "user.email=t@e", "commit", "-q", "-m", "loose"])
        let objects = Self.stockObjects(repository)  // listed by stock git before the stray pack is there
        let (pack, index) = PackScanTests.pack([(PackScanTests.id(0xAB), .blob)])
        var foreign = index
        foreign[foreign.count - 40] ^= 1  // the pack checksum the index names is not the pack's
        try Data(pack).write(to: URL(fileURLWithPath: repository + "/objects/pack/pack-stray.pack"))
        try Data(foreign).write(to: URL(fileURLWithPath: repository + "/objects/pack/pack-stray.idx"))
        #expect(throws: PackFile.Unreadable.self) {
            try PackFile(folder: repository + "/objects/pack/", name: "pack-stray")
        }
        try Self.expectAgreement(repository, objects: objects)
        let opened = try Repository.openForReading(repository)
        #expect(try opened.contains(PackScanTests.id(0xAB)) == false)
        #expect(try opened.contains(PackScanTests.id(0xCD)) == false)
    }

    /// Sizes a hostile pack declares cost bounded work: an index listing more objects than its pack can hold
    /// is refused before its ids are read, and a delta declaring a result past `PackFile.maxObjectBytes` is
    /// refused before anything is allocated for it.
    @Test func declaredSizesAreBounded() throws {
        let scratch = ScratchDirectory()
        let folder = scratch.path("objects/pack/")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let zlib = Self.storedZlib
        let base: [UInt8] = Array("abc".utf8)
        // Base size 3, result size 2^30 (a base-128 number: 0x80 0x80 0x80 0x80 0x04), copy 3 bytes from 0.
        let delta: [UInt8] = [3, 0x80, 0x80, 0x80, 0x80, 0x04, 0x91, 0, 3]
        var pack = Array("PACK".utf8) + [0, 0, 0, 2, 0, 0, 0, 2]
        let blobOffset = pack.count
        pack += [0x30 | 3] + zlib(base)
        let deltaOffset = pack.count
        pack += [0x60 | UInt8(delta.count), UInt8(deltaOffset - blobOffset)] + zlib(delta)
        pack += [UInt8](repeating: 0, count: 20)
        let ids = [PackScanTests.id(0x11), PackScanTests.id(0x22)]
        var index: [UInt8] = [0xFF, 0x74, 0x4F, 0x63, 0, 0, 0, 2]
        for first in 0..<256 {
            let count = UInt32(ids.filter { Int($0.bytes[0]) <= first }.count)
            index += withUnsafeBytes(of: count.bigEndian, Array.init)
        }
        for id in ids { index += id.bytes }
        index += [UInt8](repeating: 0, count: 8)
        for offset in [blobOffset, deltaOffset] { index += withUnsafeBytes(of: UInt32(offset).bigEndian, Array.init) }
        index += [UInt8](repeating: 0, count: 40)
        try Data(pack).write(to: URL(fileURLWithPath: folder + "pack-big.pack"))
        try Data(index).write(to: URL(fileURLWithPath: folder + "pack-big.idx"))
        let file = try PackFile(folder: folder, name: "pack-big")
        #expect(try file.object(at: blobOffset).bytes == base)
        #expect(throws: PackFile.Unreadable.self) { try file.object(at: deltaOffset) }
        do {
            _ = try file.object(at: deltaOffset)
        } catch {
            #expect(error.reason.contains("over the \(PackFile.maxObjectBytes) read"), "\(error.reason)")
        }
        // An index whose fan-out lists 2^20 objects, its tables there (a sparse file), beside a pack of 64 bytes.
        var sparse: [UInt8] = [0xFF, 0x74, 0x4F, 0x63, 0, 0, 0, 2]
        for _ in 0..<256 { sparse += withUnsafeBytes(of: UInt32(1 << 20).bigEndian, Array.init) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "pack-big.idx"))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(sparse))
        try handle.truncate(atOffset: UInt64(PackIndex.headerSize + (1 << 20) * 28 + 40))
        try handle.close()
        var small = Array("PACK".utf8) + [0, 0, 0, 2, 0, 0x10, 0, 0]
        small += [UInt8](repeating: 0, count: 64 - small.count)
        try Data(small).write(to: URL(fileURLWithPath: folder + "pack-big.pack"))
        do {
            _ = try PackFile(folder: folder, name: "pack-big")
            Issue.record("an index of 2^20 objects beside a 64-byte pack was opened")
        } catch {
            #expect(error.reason.contains("more than the pack can hold"), "\(error.reason)")
        }
    }

    /// A zlib stream of one stored block (RFC 1950/1951), so the tests need no compressor.
    static func storedZlib(_ bytes: [UInt8]) -> [UInt8] {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        let length = UInt16(bytes.count)
        return [
            0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8),
        ]
            + bytes + withUnsafeBytes(of: ((b << 16) | a).bigEndian, Array.init)
    }

    /// A pack of `objects` (each a blob's declared size and the bytes its zlib stream holds) with its index,
    /// written to `folder` as `pack-<name>`; returns each object's offset.
    static func writePack(
        _ objects: [(declared: Int, bytes: [UInt8])], folder: String, name: String, ids given: [ObjectID]? = nil
    ) throws -> [Int] {
        var pack = Array("PACK".utf8) + [0, 0, 0, 2] + withUnsafeBytes(of: UInt32(objects.count).bigEndian, Array.init)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(pack.count)
            // Type 3 (blob), the size in base-128 after its first 4 bits.
            var size = object.declared
            var header = [UInt8(0x30 | (size & 0x0F))]
            size >>= 4
            while size > 0 {
                header[header.count - 1] |= 0x80
                header.append(UInt8(size & 0x7F))
                size >>= 7
            }
            pack += header + storedZlib(object.bytes)
        }
        pack += [UInt8](repeating: 0, count: 20)
        let ids = given ?? (0..<objects.count).map { PackScanTests.id(UInt8(0x10 + $0)) }
        var index: [UInt8] = [0xFF, 0x74, 0x4F, 0x63, 0, 0, 0, 2]
        for first in 0..<256 {
            let count = UInt32(ids.filter { Int($0.bytes[0]) <= first }.count)
            index += withUnsafeBytes(of: count.bigEndian, Array.init)
        }
        for id in ids { index += id.bytes }
        index += [UInt8](repeating: 0, count: 4 * ids.count)
        for offset in offsets { index += withUnsafeBytes(of: UInt32(offset).bigEndian, Array.init) }
        index += [UInt8](repeating: 0, count: 40)
        try Data(pack).write(to: URL(fileURLWithPath: folder + "pack-\(name).pack"))
        try Data(index).write(to: URL(fileURLWithPath: folder + "pack-\(name).idx"))
        return offsets
    }

    /// A pack whose object is not what its index's id promises is refused as libgit2's strict verification
    /// refuses it: the blob read directly from the pack and the same blob read through libgit2 are both a
    /// hash mismatch, never the other bytes. Loose objects (no pack holds them) read through libgit2.
    @Test func aBlobWhoseBytesAreNotItsIdIsAHashMismatch() throws {
        let scratch = ScratchDirectory()
        let path = scratch.path("repo")
        _ = try Repository.initBare(path)
        let folder = path + "/objects/pack/"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let bytes = Array("a ledger record".utf8)
        _ = try Self.writePack([(bytes.count, bytes)], folder: folder, name: "lying")
        let repository = try Repository.openForReading(path)
        let listed = PackScanTests.id(0x10)
        do {
            _ = try repository.readBlob(listed, within: .max)
            Issue.record("the pack's bytes passed for blob \(listed.short)")
        } catch {
            #expect(error.message.contains("hash mismatch") && error.message.contains("pack-lying"), "\(error)")
        }
        #expect(throws: GitError.self) { try repository.readBlob(listed) }
        let loose = try Repository.open(path).writeBlob(bytes)
        guard case .bytes(let read) = try repository.readBlob(loose, within: .max) else {
            Issue.record("a loose blob over no limit")
            return
        }
        #expect(read == bytes)
    }

    /// Once a pack has answered enough lookups, its ids' first five bytes are held (`PackFile.candidate(for:)`)
    /// and a blob is found by them alone, its hash confirming it: an id the pack lacks but whose first five
    /// bytes one of its objects shares is a candidate, not a match — `offset(of:)` still says absent, and
    /// the blob read, finding the candidate's bytes hash to another id, reads the right one (here a loose
    /// object) every time, before the table and after.
    @Test func aBlobFoundByItsIdsStartIsConfirmedByItsHash() throws {
        let scratch = ScratchDirectory()
        let path = scratch.path("repo")
        let loose = try Repository.initBare(path).writeBlob(Array("the blob asked for".utf8))
        var lookalike = loose.bytes
        lookalike[19] ^= 0xFF  // the same first five bytes, another id
        let folder = path + "/objects/pack/"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let other = Array("another blob".utf8)
        let offsets = try Self.writePack(
            [(other.count, other)], folder: folder, name: "lookalike", ids: [ObjectID(rawBytes: lookalike)!])
        let pack = try PackFile(folder: folder, name: "pack-lookalike", keepingOffsets: true)
        guard case .unknown = try pack.candidate(for: PackedObjectID(loose)) else {
            Issue.record("a prefix table before any lookups")
            return
        }
        for _ in 0..<PackFile.prefixTableAfter(pack.objectCount) { _ = try pack.offset(of: PackedObjectID(loose)) }
        guard case .candidate(let offset) = try pack.candidate(for: PackedObjectID(loose)) else {
            Issue.record("no candidate once the table is read")
            return
        }
        #expect(offset == offsets[0])
        #expect(try pack.offset(of: PackedObjectID(loose)) == nil)
        var unlike = loose.bytes
        unlike[2] ^= 0xFF  // the same fan-out bucket, another prefix
        guard case .absent = try pack.candidate(for: PackedObjectID(ObjectID(rawBytes: unlike)!)) else {
            Issue.record("an id no object begins like is not absent")
            return
        }
        let repository = try Repository.openForReading(path, keepingOffsets: true)
        for _ in 0...PackFile.prefixTableAfter(1) + 10 {
            guard case .bytes(let bytes) = try repository.readBlob(loose, within: .max) else {
                Issue.record("a blob over no limit")
                return
            }
            #expect(bytes == Array("the blob asked for".utf8))
        }
    }

    /// An index whose ids are out of order within a fan-out bucket gets no prefix table: every lookup stays
    /// exact, as it was, rather than a search that misses ids.
    @Test func anIndexOutOfOrderKeepsItsLookupsExact() throws {
        let scratch = ScratchDirectory()
        let folder = scratch.path("objects/pack/")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let ids = [[0x10, 0x99], [0x10, 0x11]].map { ObjectID(rawBytes: $0 + [UInt8](repeating: 0x42, count: 18))! }
        let bytes = [Array("first".utf8), Array("second".utf8)]
        _ = try Self.writePack(bytes.map { ($0.count, $0) }, folder: folder, name: "unsorted", ids: ids)
        let pack = try PackFile(folder: folder, name: "pack-unsorted", keepingOffsets: true)
        for _ in 0...PackFile.prefixTableAfter(pack.objectCount) { _ = try pack.offset(of: PackedObjectID(ids[0])) }
        guard case .unknown = try pack.candidate(for: PackedObjectID(ids[1])) else {
            Issue.record("a prefix table over ids out of order")
            return
        }
    }

    /// An object whose zlib stream holds more or fewer bytes than its header declares is refused — one byte
    /// more, more than the room the reader leaves past the declared size, fewer — and the objects read after
    /// a refused one read whole (one zlib stream serves every object, reset between them).
    @Test func anObjectInflatingToOtherThanItsDeclaredSizeIsRefused() throws {
        let scratch = ScratchDirectory()
        let folder = scratch.path("objects/pack/")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let good = Array("a ledger record".utf8)
        let long = [UInt8](repeating: 0x61, count: 3 + PackFile.inflateSlack + 100)
        let offsets = try Self.writePack(
            [
                (good.count, good), (3, Array("abcd".utf8)), (3, long), (5, Array("abc".utf8)), (good.count, good),
                (long.count, long),
            ], folder: folder, name: "sizes")
        let file = try PackFile(folder: folder, name: "pack-sizes")
        func reason(_ offset: Int) -> String? {
            do {
                _ = try file.object(at: offset)
                return nil
            } catch {
                return error.reason
            }
        }
        #expect(try file.object(at: offsets[0]).bytes == good)
        #expect(reason(offsets[1])?.contains("inflates to 4 bytes, not 3") == true, "\(reason(offsets[1]) ?? "read")")
        #expect(
            reason(offsets[2])?.contains("does not inflate to its 3 bytes") == true, "\(reason(offsets[2]) ?? "read")")
        #expect(reason(offsets[3])?.contains("inflates to 3 bytes, not 5") == true, "\(reason(offsets[3]) ?? "read")")
        #expect(try file.object(at: offsets[4]).bytes == good)
        #expect(try file.object(at: offsets[5]).bytes == long)
        #expect(try file.object(at: offsets[0]).bytes == good)
    }

    /// git's delta instructions, the malformed ones refused with a reason (each range checked).
    @Test func malformedDeltasAreRefused() {
        func apply(_ delta: [UInt8], base: [UInt8] = Array("abcdefgh".utf8)) -> String {
            let sizes = delta.withUnsafeBytes { try? PackDelta.sizes($0) }
            var result = [UInt8](repeating: 0, count: sizes?.result ?? 0)
            let outcome = delta.withUnsafeBytes { d in
                base.withUnsafeBytes { b in
                    result.withUnsafeMutableBytes { r in
                        Result { () throws(PackDelta.Malformed) in try PackDelta.apply(d, to: b, into: r) }
                    }
                }
            }
            switch outcome {
            case .success: return String(decoding: result, as: UTF8.self)
            case .failure(let error): return "error: " + error.reason
            }
        }
        // base 8, result 6: copy 3 bytes from offset 2 ("cde"), insert "XYZ".
        #expect(apply([8, 6, 0x91, 2, 3, 3, 0x58, 0x59, 0x5A]) == "cdeXYZ")
        // A copy of size 0 copies 0x10000 bytes.
        let long = (0..<0x10000).map { UInt8(truncatingIfNeeded: $0 % 251 + 1) }
        #expect(apply([0x80, 0x80, 0x04, 0x80, 0x80, 0x04, 0x80], base: long) == String(decoding: long, as: UTF8.self))
        #expect(apply([8, 3, 0x91, 7, 3]).contains("copies 3 bytes from 7"))
        #expect(apply([8, 3, 0]).contains("reserved"))
        #expect(apply([8, 3, 5, 0x41]).contains("inserts 5 bytes"))
        #expect(apply([8, 4, 0x91, 0, 3]).contains("makes 3 bytes"))
        #expect(apply([9, 3, 0x91, 0, 3]).contains("base of 9 bytes"))
        #expect(apply([0x80, 0x80]).contains("cut short"))
        #expect(apply([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]).contains("2^56"))
    }
}
