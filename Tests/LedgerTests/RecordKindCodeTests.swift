import Testing

@testable import LedgerFormat
@testable import LedgerStore

/// A kind's code is how saved record indexes name it: pinned, unique, and independent of the order kinds are
/// listed in, so a kind added anywhere leaves every saved table meaning what it meant.
@Suite("Stable record kind codes")
struct RecordKindCodeTests {
    /// The codes saved tables already hold. A new kind takes a new code; these never change.
    static let pinned: [String: UInt8] = [
        "profile": 0, "manifest": 1, "mandate": 2, "verdict": 3, "receipt": 4, "status-attempt": 5,
        "compromise-report": 6, "revocation": 7,
    ]

    @Test func everyKindKeepsItsCode() {
        for kind in StoredRecords.kinds {
            if let code = Self.pinned[kind.kindName] { #expect(kind.code == code, "\(kind.kindName)") }
        }
        let codes = StoredRecords.kinds.map { $0.code }
        #expect(Set(codes).count == codes.count, "two kinds share a code: \(codes)")
        #expect(!codes.contains(0xFF), "0xFF names a manifest's detached signature")
    }

    @Test func aKeyNamesItsKindByCodeNotByPosition() {
        let address = SHA256.hash(Array("a record".utf8))
        for kind in StoredRecords.kinds.reversed() {
            let key = RecordIndex.Key(kind, address)
            #expect(key.code == kind.code)
            #expect(key.kind == kind)
            let bytes = RecordIndex.Codec.bytes(of: key)
            #expect(RecordIndex.Codec.key(from: bytes) == key)
        }
        // A code no kind has is not a key (a table written by a newer version is not misread).
        var unknown = RecordIndex.Codec.bytes(of: RecordIndex.Key(StoredRecords.kinds[0], address))
        unknown[0] = 0x7E
        #expect(RecordIndex.Codec.key(from: unknown) == nil)
    }

    /// The index's dictionary holds a key and a location per record (millions at 10^7 write entries): a
    /// location is its 20-byte blob id and 4-byte batch with no padding, and reads back what it was given.
    @Test func aLocationIsTwentyFourBytes() throws {
        #expect(MemoryLayout<RecordIndex.Location>.stride == 24)
        let blob = try #require(ObjectID(hexString: "0123456789abcdef0123456789abcdef01234567"))
        let location = RecordIndex.Location(batch: Int64(UInt32.max), blob: blob)
        #expect(location.batch == UInt32.max && location.blob == blob)
    }
}
