/// The oracle's own clock arithmetic: RFC 3339 timestamps and `P<n>D` durations, parsed and rendered
/// without the project's `Instant`, so that a misreading of an offset or a fraction there is not shared.
///
/// onym-wire §4.5: "Accepted: any RFC 3339 (offsets, fractional seconds) … Comparisons are on parsed
/// instants"; §4.1: "Day arithmetic is `days × 86 400 s` on UTC instants (no calendar/DST logic)".
struct OracleInstant: Comparable, Hashable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01T00:00:00Z (floor).
    var seconds: Int64
    /// 0 ..< 1 000 000 000.
    var nanos: Int64

    init(seconds: Int64, nanos: Int64 = 0) {
        let carry = nanos >= 0 ? nanos / 1_000_000_000 : (nanos - 999_999_999) / 1_000_000_000
        self.seconds = seconds + carry
        self.nanos = nanos - carry * 1_000_000_000
    }

    static func < (lhs: Self, rhs: Self) -> Bool { (lhs.seconds, lhs.nanos) < (rhs.seconds, rhs.nanos) }

    func adding(seconds delta: Int64, nanos deltaNanos: Int64 = 0) -> Self {
        Self(seconds: seconds + delta, nanos: nanos + deltaNanos)
    }

    func adding(days: Int64) -> Self { adding(seconds: days * 86_400) }

    /// Nanoseconds from `self` to `later`.
    func nanos(until later: Self) -> Int64 { (later.seconds - seconds) * 1_000_000_000 + (later.nanos - nanos) }

    var description: String { OracleTime.render(self) }
}

enum OracleTime {
    struct Malformed: Error, CustomStringConvertible {
        var text: String
        var rule: String
        var description: String { "not an RFC 3339 date-time: \(text.debugDescription) (\(rule))" }
    }

    /// RFC 3339 §5.6 `date-time`: `YYYY-MM-DD` `T` `hh:mm:ss` [`.` 1–9 digits] (`Z` | `±hh:mm`), `T` and `Z`
    /// in either case; a leap second (`:60`) is refused, as docs/DECISIONS.md says the ledger does.
    static func parse(_ text: String) throws -> OracleInstant {
        var reader = Reader(bytes: Array(text.utf8), text: text)
        let year = try reader.digits(4)
        try reader.expect("-")
        let month = try reader.digits(2)
        try reader.expect("-")
        let day = try reader.digits(2)
        try reader.expect(oneOf: "Tt")
        let hour = try reader.digits(2)
        try reader.expect(":")
        let minute = try reader.digits(2)
        try reader.expect(":")
        let second = try reader.digits(2)
        var nanos: Int64 = 0
        if reader.peek == UInt8(ascii: ".") {
            reader.index += 1
            var count = 0
            while let byte = reader.peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                count += 1
                guard count <= 9 else { throw Malformed(text: text, rule: "more than 9 fraction digits") }
                nanos = nanos * 10 + Int64(byte - UInt8(ascii: "0"))
                reader.index += 1
            }
            guard count > 0 else { throw Malformed(text: text, rule: "a fraction needs a digit") }
            for _ in count..<9 { nanos *= 10 }
        }
        var offsetMinutes: Int64 = 0
        switch reader.peek {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            reader.index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign: Int64 = reader.peek == UInt8(ascii: "-") ? -1 : 1
            reader.index += 1
            let hours = try reader.digits(2)
            try reader.expect(":")
            let minutes = try reader.digits(2)
            guard hours <= 23, minutes <= 59 else { throw Malformed(text: text, rule: "offset out of range") }
            offsetMinutes = sign * (hours * 60 + minutes)
        default:
            throw Malformed(text: text, rule: "missing offset")
        }
        guard reader.index == reader.bytes.count else { throw Malformed(text: text, rule: "trailing characters") }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else {
            throw Malformed(text: text, rule: "no such date")
        }
        guard hour <= 23, minute <= 59, second <= 59 else { throw Malformed(text: text, rule: "no such time") }
        let local = daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return OracleInstant(seconds: local - offsetMinutes * 60, nanos: nanos)
    }

    /// Renders `instant` as it reads at `offsetMinutes` east of UTC (`Z` at 0 unless `numericZero`), with
    /// exactly `fractionDigits` digits — which must be enough to say the instant exactly.
    static func render(
        _ instant: OracleInstant, offsetMinutes: Int64 = 0, fractionDigits: Int? = nil, lowercase: Bool = false,
        numericZero: Bool = false
    ) -> String {
        let digits = fractionDigits ?? neededDigits(instant.nanos)
        precondition(digits >= neededDigits(instant.nanos), "\(digits) fraction digits cannot say \(instant.nanos) ns")
        let local = instant.seconds + offsetMinutes * 60
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondOfDay = local - days * 86_400
        let (year, month, day) = civil(daysSinceEpoch: days)
        var text =
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))\(lowercase ? "t" : "T")"
            + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if digits > 0 {
            var fraction = instant.nanos
            for _ in digits..<9 { fraction /= 10 }
            text += "." + pad(fraction, digits)
        }
        if offsetMinutes == 0 && !numericZero {
            text += lowercase ? "z" : "Z"
        } else {
            let magnitude = abs(offsetMinutes)
            text += (offsetMinutes < 0 ? "-" : "+") + pad(magnitude / 60, 2) + ":" + pad(magnitude % 60, 2)
        }
        return text
    }

    /// onym-wire §4.4: `P<n>D`, n a positive integer (a leading `+` and leading zeros accepted, as Rust's
    /// `i64::parse` does); `nil` for anything else.
    static func days(_ duration: String) -> Int64? {
        guard duration.hasPrefix("P"), duration.hasSuffix("D"), duration.count >= 3 else { return nil }
        var digits = Substring(duration.dropFirst().dropLast())
        if digits.hasPrefix("+") { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            digits.count <= 18, let days = Int64(digits), days > 0
        else { return nil }
        return days
    }

    // MARK: - Civil calendar (proleptic Gregorian), counted year by year and month by month

    /// Days from 1970-01-01 to the given date (negative before it). A plain count rather than a closed
    /// formula, so that it shares no derivation with the project's timestamp code.
    static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        var days: Int64 = 0
        if year >= 1970 {
            for earlier in stride(from: Int64(1970), to: year, by: 1) { days += daysIn(year: earlier) }
        } else {
            for later in stride(from: year, to: Int64(1970), by: 1) { days -= daysIn(year: later) }
        }
        for earlier in stride(from: Int64(1), to: month, by: 1) { days += daysIn(month: earlier, year: year) }
        return days + day - 1
    }

    /// The date `days` after 1970-01-01.
    static func civil(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        var year: Int64 = 1970
        var rest = days
        while rest < 0 {
            year -= 1
            rest += daysIn(year: year)
        }
        while rest >= daysIn(year: year) {
            rest -= daysIn(year: year)
            year += 1
        }
        var month: Int64 = 1
        while rest >= daysIn(month: month, year: year) {
            rest -= daysIn(month: month, year: year)
            month += 1
        }
        return (year, month, rest + 1)
    }

    static func daysIn(year: Int64) -> Int64 { daysIn(month: 2, year: year) == 29 ? 366 : 365 }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The fewest fraction digits that say `nanos` exactly.
    static func neededDigits(_ nanos: Int64) -> Int {
        var digits = 9
        var rest = nanos
        while digits > 0 && rest % 10 == 0 {
            rest /= 10
            digits -= 1
        }
        return nanos == 0 ? 0 : digits
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private struct Reader {
        var bytes: [UInt8]
        var text: String
        var index = 0

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func digits(_ count: Int) throws -> Int64 {
            var value: Int64 = 0
            for _ in 0..<count {
                guard let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                    throw Malformed(text: text, rule: "expected \(count) digits at \(index)")
                }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                index += 1
            }
            return value
        }

        mutating func expect(_ character: Character) throws { try expect(oneOf: String(character)) }

        mutating func expect(oneOf characters: String) throws {
            guard let byte = peek, characters.utf8.contains(byte) else {
                throw Malformed(text: text, rule: "expected one of \(characters.debugDescription) at \(index)")
            }
            index += 1
        }
    }
}
