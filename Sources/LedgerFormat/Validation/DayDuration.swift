/// The reference's only duration form, `P<n>D` with n > 0, plus `permanent` for ban terms
/// (reference §4.4, `util.rs::parse_days`).
///
/// Like Rust's `i64::parse` (and Swift's `Int(_:)`), a leading `+` and leading zeros are accepted
/// (`P+7D`, `P007D`); the ledger follows Rust where the implementations differ. Terms above
/// ``maxDays`` are rejected so day arithmetic cannot overflow.
public enum DayDuration {
    public static let maxDays: Int64 = 1_000_000

    public static func parseDays(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        guard b.count >= 3, b.first == UInt8(ascii: "P"), b.last == UInt8(ascii: "D") else { return nil }
        var digits = b[1..<(b.count - 1)]
        if digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 19, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        var value: Int64 = 0
        for digit in digits {
            value = value * 10 + Int64(digit - 0x30)
            if value > maxDays { return nil }
        }
        return value > 0 ? value : nil
    }

    public static func parseDays(_ text: String, field: String) throws(LedgerFormatError) -> Int64 {
        guard let days = parseDays(text) else {
            throw LedgerFormatError(
                .invalidDuration, "\"\(text.prefix(40))\" is not a duration of the form P<n>D (n > 0)",
                path: field)
        }
        return days
    }
}

/// A violation class's ban term: a number of days, or permanent.
public enum BanTerm: Equatable, Sendable {
    case days(Int64)
    case permanent

    public static func parse(_ text: String, field: String) throws(LedgerFormatError) -> BanTerm {
        if text == "permanent" { return .permanent }
        return .days(try DayDuration.parseDays(text, field: field))
    }
}
