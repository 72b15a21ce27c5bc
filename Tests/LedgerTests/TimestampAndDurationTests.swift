import Testing

@testable import LedgerFormat
import LedgerStore

@Suite("RFC 3339 timestamps and P<n>D durations")
struct TimestampAndDurationTests {
    @Test func roundTripsTheReferenceForm() throws {
        let instant = try #require(Instant.parse("2026-08-08T12:00:00Z"))
        #expect(instant.seconds == 1_786_190_400)
        #expect(instant.rfc3339 == "2026-08-08T12:00:00Z")
        #expect(Instant(seconds: 0).rfc3339 == "1970-01-01T00:00:00Z")
        #expect(Instant(seconds: -1).rfc3339 == "1969-12-31T23:59:59Z")
    }

    @Test func offsetsNormalizeToTheSameInstant() throws {
        let utc = try #require(Instant.parse("2026-08-18T00:00:00Z"))
        #expect(Instant.parse("2026-08-18T02:00:00+02:00") == utc)
        #expect(Instant.parse("2026-08-17T19:30:00-04:30") == utc)
        #expect(Instant.parse("2026-08-18t00:00:00z") == utc)
        #expect(Instant.parse("2026-08-18T00:00:00.5Z")! > utc)
        #expect(Instant.parse("2026-08-18T00:00:00.000000001Z")!.nanoseconds == 1)
    }

    @Test(arguments: [
        "2026-08-18", "2026-08-18T00:00:00", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-08-18T24:00:00Z",
        "2026-08-18T00:00:60Z", "2026-08-18 00:00:00Z", "2026-08-18T00:00:00.Z", "2026-08-18T00:00:00.0000000001Z",
        "2026-08-18T00:00:00+0200", "26-08-18T00:00:00Z", "2026-08-18T00:00:00Z ", "",
    ])
    func rejects(_ text: String) {
        #expect(Instant.parse(text) == nil)
    }

    @Test func leapDayAccepted() { #expect(Instant.parse("2028-02-29T00:00:00Z") != nil) }

    /// Rust `whole_seconds() ≤ 1`: a difference under 2 s passes, 2 s does not.
    @Test func referenceTolerance() {
        let base = Instant(seconds: 1000)
        #expect(base.isWithinReferenceTolerance(of: Instant(seconds: 1001, nanoseconds: 999_999_999)))
        #expect(base.isWithinReferenceTolerance(of: Instant(seconds: 999)))
        #expect(!base.isWithinReferenceTolerance(of: Instant(seconds: 1002)))
        #expect(!base.isWithinReferenceTolerance(of: Instant(seconds: 998)))
    }

    @Test(arguments: [("P1D", 1), ("P90D", 90), ("P365D", 365), ("P+7D", 7), ("P007D", 7)] as [(String, Int64)])
    func acceptsDurations(_ text: String, _ days: Int64) {
        #expect(DayDuration.parseDays(text) == days)
    }

    /// The reference's reject list (`util.rs` tests) plus overflow.
    @Test(arguments: [
        "", "P", "PD", "P0D", "P-1D", "PT1H", "90D", "P90", "P1.5D", "P1W", "p1d", "P99999999999999999999D",
    ])
    func rejectsDurations(_ text: String) {
        #expect(DayDuration.parseDays(text) == nil)
    }

    @Test func banTerms() throws {
        #expect(try BanTerm.parse("permanent", field: "$") == .permanent)
        #expect(try BanTerm.parse("P30D", field: "$") == .days(30))
        #expect(throws: LedgerFormatError(.invalidDuration, "")) { try BanTerm.parse("forever", field: "$") }
    }
}
