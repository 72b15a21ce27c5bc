/// A string read from a record — an authority's `onym:component:` id, a device binding, a case id, a class
/// id, an accused key — that equals, hashes and sorts by its UTF-8 bytes.
///
/// Swift's `String` equality is Unicode canonical equivalence: `"enrollment:\u{e9}"` (é precomposed) equals
/// `"enrollment:e\u{301}"` (e and a combining acute), and the Kelvin sign U+212A equals `K`. The references
/// compare Rust `String`s, which are bytes, so two such spellings name two devices, two authorities, two
/// cases (docs/FORMAT.md, "Strings compare by bytes"). Every identifier the rulebook matches, groups or
/// looks up is held as a `WireString`, so no comparison of one can fall back to `String`'s equivalence.
/// Text is shown through ``text`` (or string interpolation), unchanged.
public struct WireString: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The string as the record spells it.
    public let text: String

    public init(_ text: String) { self.text = text }

    public init(stringLiteral text: String) { self.text = text }

    public var description: String { text }

    /// The number of UTF-8 bytes.
    public var byteCount: Int { text.utf8.count }

    /// Whether the string's bytes begin with `prefix`'s (Rust's `str::starts_with`; `String.hasPrefix`
    /// compares characters, so `"onym:component:\u{301}x"` would not begin with `"onym:component:"`).
    public func hasBytePrefix(_ prefix: String) -> Bool { text.hasBytePrefix(prefix) }

    public static func == (left: WireString, right: WireString) -> Bool { left.text.hasSameBytes(as: right.text) }

    /// Byte equality with a string held as `String` (a name a caller was given): never `String`'s equivalence.
    public static func == (left: WireString, right: String) -> Bool { left.text.hasSameBytes(as: right) }

    public static func == (left: String, right: WireString) -> Bool { right == left }

    public static func != (left: WireString, right: String) -> Bool { !(left == right) }

    public static func != (left: String, right: WireString) -> Bool { !(right == left) }

    public static func < (left: WireString, right: WireString) -> Bool { left.text.utf8Compare(right.text) < 0 }

    public func hash(into hasher: inout Hasher) {
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
        if hashed == nil { Array(text.utf8).withUnsafeBytes { hasher.combine(bytes: $0) } }
        hasher.combine(0xFF as UInt8)  // no string's UTF-8 holds 0xFF: ends the bytes, as a length would
    }
}

extension Array where Element == WireString {
    /// The strings as records spell them.
    public var texts: [String] { map(\.text) }
}
