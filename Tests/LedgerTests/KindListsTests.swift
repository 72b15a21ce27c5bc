import LedgerFormat
import Testing

/// The kind lists are one list: `RecordKind` and `InputKind` take the stored kinds from
/// `StoredRecords.kinds`, so none is matched with another by spelling.
@Suite("Kind lists derive from StoredRecords.kinds")
struct KindListsTests {
    @Test func everyStoredKindIsARecordShapeAndAnInputKindOfItsOwn() {
        let codes = StoredRecords.kinds.map { kind in kind.code }
        let shapes = RecordKind.allCases.compactMap { shape in shape.stored }.map { kind in kind.code }
        let inputs = InputKind.allCases.compactMap { input in input.stored }.map { kind in kind.code }
        #expect(shapes == codes)
        #expect(inputs == codes)
        for input in InputKind.allCases {
            guard let stored = input.stored else { continue }
            #expect(input.shape?.stored?.code == stored.code, "\(input)")
        }
    }
}
