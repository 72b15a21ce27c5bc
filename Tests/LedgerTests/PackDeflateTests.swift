import CLibgit2
import Foundation
import LedgerStore
import Testing

@testable import LedgerWriter

/// The writer's pack entries are deflated by libdeflate (``PackEntryDeflater``) and their CRC-32s
/// computed by it: stock git must read every object back byte for byte and rebuild the same index from
/// the pack. Several threads deflate at once; a race in the compressors' pool would show here only as a
/// damaged stream, by chance (the thread sanitizer, `swift test --sanitize=thread`, is the surer check).
@Suite("Pack entries deflated by libdeflate, read by stock git")
struct PackDeflateTests {
    @Test func stockGitReadsEveryObjectBackAndRebuildsTheSameIndex() throws {
        let scratch = ScratchDirectory()
        let repository = scratch.path("repo.git")
        try #require(runProcess("git", ["init", "--quiet", "--bare", repository]).status == 0)
        var random = SeededGenerator(state: 7)
        let record = Array(#"{"kind":"verdict","reasoning":"a record's usual size and shape"}"#.utf8)
        // Many small records of differing bytes, as a batch holds, and the edge cases.
        let records: [[UInt8]] = (0..<300).map { number in
            Array(#"{"kind":"mandate","number":\#(number),"noise":"\#(random.next())"}"#.utf8)
        }
        let contents: [[UInt8]] =
            records + [
                [],
                [0x0A],
                record,
                // Incompressible: the stream is longer than its input, within the bound.
                (0..<300_000).map { _ in UInt8(truncatingIfNeeded: random.next()) },
                [UInt8](repeating: 0, count: 2 << 20),
                Array(repeatElement(record, count: 5_000).joined()),
            ]
        let objects = try contents.map {
            PackWriter.Object(id: try Repository.blobID(of: $0), type: GIT_OBJECT_BLOB, data: $0)
        }
        // Slices of 128 objects: each is mapped over in chunks of 32 (`parallelMap`), so up to four run at once
        // on as many threads as the machine has, each with a compressor of the pool.
        let name = try PackWriter.write(objects, into: repository + "/objects/pack/", slice: 128)

        for (object, bytes) in zip(objects, contents) {
            let copy = scratch.path(object.id.hex)
            let read = runProcess(
                "sh", ["-c", "git --git-dir \"$0\" cat-file blob \"$1\" > \"$2\"", repository, object.id.hex, copy])
            #expect(read.status == 0, "\(read.stderr)")
            let readBack = try [UInt8](Data(contentsOf: URL(fileURLWithPath: copy)))
            #expect(readBack == bytes, "blob \(object.id.hex) of \(bytes.count) bytes")
        }
        // `verify-pack` inflates every entry and rebuilds the index — its CRC-32s included — from the pack,
        // then compares it with the one written here.
        let index = repository + "/objects/pack/" + name + ".idx"
        let verified = runProcess("git", ["--git-dir", repository, "verify-pack", "-v", index])
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(runProcess("git", ["--git-dir", repository, "fsck", "--full", "--strict"]).status == 0)
    }

    /// The CRC-32 packs record is gzip's: its check value for the ASCII digits 1 to 9 (the catalogue of
    /// parametrised CRC algorithms, "CRC-32/ISO-HDLC").
    @Test func theChecksumIsCRC32() {
        let digits = Array("123456789".utf8)
        #expect(digits.withUnsafeBytes { PackWriter.crc($0) } == 0xCBF4_3926)
        #expect(PackWriter.crc(UnsafeRawBufferPointer(start: nil, count: 0)) == 0)
    }
}
