public import LedgerFormat

/// Strings many records repeat — an authority's name on each of its verdicts — held once: every equal
/// string handed to ``share(_:)`` comes back as the one copy kept. A cache, not part of what a state is:
/// two states are equal whatever their caches hold.
public struct SharedStrings: Sendable, Equatable {
    private var strings: Set<WireString> = []

    public init() {}

    /// `text`, or the equal string kept already (`text` is kept when there is none).
    public mutating func share(_ text: WireString) -> WireString { strings.insert(text).memberAfterInsert }

    /// How many distinct strings are kept.
    public var count: Int { strings.count }

    public static func == (lhs: SharedStrings, rhs: SharedStrings) -> Bool { true }
}
