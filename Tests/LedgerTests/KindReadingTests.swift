import Testing

@testable import LedgerFormat

/// A record kind is one declaration, and what its records say is part of it (`StoredRecord.reading`).
@Suite("Readings: every kind gives one")
struct KindReadingTests {
    /// Every stored kind gives a reading (a kind without one does not compile: `StoredRecord.reading` has no
    /// default): a kind added to `StoredRecords.kinds` without a fixture here, or whose fixture reads as no
    /// facts, fails.
    @Test func everyStoredKindGivesAReading() throws {
        for kind in StoredRecords.kinds {
            let fixtures = ReadingFixtures.all.filter { $0.kind == kind }
            #expect(!fixtures.isEmpty, "no fixture of the kind \(kind.kindName)")
            for fixture in fixtures {
                let record = try kind.init(storedBytes: fixture.bytes)
                let reading = record.reading
                #expect(!reading.title.isEmpty && !reading.facts.isEmpty, "\(fixture.name)")
            }
        }
    }
}
