/// An instant on the UTC time line with nanosecond precision, parsed from RFC 3339.
///
/// Reference §4.5: timestamps are *emitted* as whole-second UTC with `Z` but *accepted* as any
/// RFC 3339 (offsets, fractions); comparisons are on instants. Day arithmetic is 86 400 s
/// (§4.1, no calendar or DST logic).
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public let seconds: Int64
    /// Nanoseconds within the second, 0..<1_000_000_000.
    public let nanoseconds: Int32

    public init(seconds: Int64, nanoseconds: Int32 = 0) {
        precondition((0..<1_000_000_000).contains(nanoseconds))
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    public func adding(seconds delta: Int64) -> Instant {
        Instant(seconds: seconds + delta, nanoseconds: nanoseconds)
    }

    public func adding(days: Int64) -> Instant { adding(seconds: days * 86_400) }

    /// The reference's tolerance test (`verdict.rs`): `(lhs − rhs).whole_seconds().abs() ≤ 1`,
    /// i.e. the difference truncated toward zero is at most one second, so anything under 2 s passes.
    /// Rust and iOS differ (iOS: `abs(Δ) ≤ 1.0`); the ledger follows Rust (docs/DECISIONS.md).
    public func isWithinReferenceTolerance(of other: Instant) -> Bool {
        let nanos = (seconds - other.seconds) * 1_000_000_000 + Int64(nanoseconds - other.nanoseconds)
        let wholeSeconds = nanos / 1_000_000_000  // truncates toward zero, like `whole_seconds()`
        return abs(wholeSeconds) <= 1
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, the reference's emitted form (fractions are dropped, as
    /// `format_timestamp` zeroes nanoseconds).
    public var description: String { rfc3339 }

    public var rfc3339: String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = Self.civil(fromDays: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))Z"
    }

    /// Parses RFC 3339 `date-time` (§5.6): `T`/`t` separator, `Z`/`z` or `±HH:MM`, optional
    /// fraction of 1–9 digits. A leap second (`:60`) is rejected, as the Rust `time` crate does
    /// for instants it cannot represent.
    public static func parse(_ text: String) -> Instant? {
        let b = Array(text.utf8)
        guard b.count >= 20, b.count <= 40 else { return nil }
        func digits(_ start: Int, _ count: Int) -> Int64? {
            guard start + count <= b.count else { return nil }
            var value: Int64 = 0
            for index in start..<start + count {
                guard b[index] >= 0x30, b[index] <= 0x39 else { return nil }
                value = value * 10 + Int64(b[index] - 0x30)
            }
            return value
        }
        guard let year = digits(0, 4), b[4] == 0x2D, let month = digits(5, 2), b[7] == 0x2D, let day = digits(8, 2),
            b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"), let hour = digits(11, 2), b[13] == 0x3A,
            let minute = digits(14, 2), b[16] == 0x3A, let second = digits(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month), hour < 24,
            minute < 60, second < 60
        else { return nil }
        var index = 19
        var nanos: Int64 = 0
        if index < b.count, b[index] == UInt8(ascii: ".") {
            index += 1
            var count = 0
            while index < b.count, b[index] >= 0x30, b[index] <= 0x39 {
                guard count < 9 else { return nil }
                nanos = nanos * 10 + Int64(b[index] - 0x30)
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<9 { nanos *= 10 }
        }
        guard index < b.count else { return nil }
        var offsetSeconds: Int64 = 0
        switch b[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign: Int64 = b[index] == UInt8(ascii: "+") ? 1 : -1
            guard let offsetHour = digits(index + 1, 2), index + 3 < b.count, b[index + 3] == 0x3A,
                let offsetMinute = digits(index + 4, 2), offsetHour < 24, offsetMinute < 60
            else { return nil }
            offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
            index += 6
        default:
            return nil
        }
        guard index == b.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let local = days * 86_400 + hour * 3600 + minute * 60 + second
        return Instant(seconds: local - offsetSeconds, nanoseconds: Int32(nanos))
    }

    /// Parses a timestamp field, throwing an error that names it.
    public static func parse(_ text: String, field: String) throws(LedgerFormatError) -> Instant {
        guard let instant = parse(text) else {
            throw LedgerFormatError(
                .invalidTimestamp, "\"\(text.prefix(60))\" is not an RFC 3339 date-time", path: field)
        }
        return instant
    }

    // MARK: - Civil calendar (proleptic Gregorian; Howard Hinnant's algorithms)

    private static func isLeap(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
