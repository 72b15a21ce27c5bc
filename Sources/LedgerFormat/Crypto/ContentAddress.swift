/// A 32-byte SHA-256 content address: `mandateRef`, `verdictRef`, `manifestHash`, write-log hashes.
///
/// Held as four words, not an array, so it is cheap to hash and copy.
/// Rendered as lowercase hex without prefix only at the edges (reference §1.3).
public struct ContentAddress: Hashable, Sendable, Comparable, CustomStringConvertible {
    private let words: (UInt64, UInt64, UInt64, UInt64)

    /// - Precondition: exactly 32 bytes (a programmer error otherwise; parse text with ``init(hex:)``).
    public init(bytes: some Collection<UInt8>) {
        precondition(bytes.count == 32, "a content address is 32 bytes")
        var iterator = bytes.makeIterator()
        func word() -> UInt64 {
            var value: UInt64 = 0
            for _ in 0..<8 { value = value << 8 | UInt64(iterator.next()!) }
            return value
        }
        words = (word(), word(), word(), word())
    }

    /// Parses 64 lowercase hex digits; nil for anything else.
    public init?(hex: String) {
        self.init(hexBytes: hex.utf8)
    }

    /// The address whose 32 bytes are these four big-endian words (a fast path for binary files).
    public init(words: (UInt64, UInt64, UInt64, UInt64)) {
        self.words = words
    }

    /// Its 32 bytes as four big-endian words.
    public var bigEndianWords: (UInt64, UInt64, UInt64, UInt64) { words }

    /// Parses 64 lowercase hex digits given as UTF-8 bytes; nil for anything else.
    public init?(hexBytes text: some Collection<UInt8>) {
        guard text.count == 64 else { return nil }
        let contiguous: (UInt64, UInt64, UInt64, UInt64)?? = text.withContiguousStorageIfAvailable {
            Self.words(hex: $0)
        }
        let parsed: (UInt64, UInt64, UInt64, UInt64)?
        if let contiguous {
            parsed = contiguous
        } else {
            parsed = Array(text).withUnsafeBufferPointer { Self.words(hex: $0) }
        }
        guard let words = parsed else { return nil }
        self.words = words
    }

    /// The four big-endian words 64 lowercase hex digits spell, nil for anything else.
    ///
    /// Without a branch a digit: whether a byte is a digit or a letter is as likely as not in a hash, so a
    /// branch on it is mispredicted half the time (every record names several addresses). Each byte's value
    /// is chosen by a comparison, and whether any byte was neither is checked once at the end.
    private static func words(hex text: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64, UInt64, UInt64)? {
        guard text.count == 64 else { return nil }
        var invalid: UInt8 = 0
        func word(_ start: Int) -> UInt64 {
            var value: UInt64 = 0
            for index in start..<start + 16 {
                let byte = text[index]
                let digit = byte &- UInt8(ascii: "0")
                let letter = byte &- UInt8(ascii: "a")
                let isDigit = digit < 10
                invalid |= (isDigit ? 0 : 1) & (letter < 6 ? 0 : 1)
                value = value << 4 | UInt64(isDigit ? digit : letter &+ 10)
            }
            return value
        }
        let words = (word(0), word(16), word(32), word(48))
        return invalid == 0 ? words : nil
    }

    /// The SHA-256 of `data`.
    public init(hashing data: some Collection<UInt8>) {
        self = SHA256.hash(data)
    }

    /// The 32 bytes, in order (the words hold them big-endian; a tuple of one type is laid out as an array).
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Calls `body` with the 32 bytes, in order, from the stack (no array made).
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try Swift.withUnsafeBytes(
            of: (words.0.bigEndian, words.1.bigEndian, words.2.bigEndian, words.3.bigEndian), body)
    }

    public var hex: String { withUnsafeBytes { Hex.encode($0) } }
    public var description: String { hex }

    public static func == (lhs: ContentAddress, rhs: ContentAddress) -> Bool {
        lhs.words == rhs.words
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }

    public static func < (lhs: ContentAddress, rhs: ContentAddress) -> Bool {
        (lhs.words.0, lhs.words.1, lhs.words.2, lhs.words.3) < (rhs.words.0, rhs.words.1, rhs.words.2, rhs.words.3)
    }
}

extension ContentAddress {
    /// Parses a hex content address or throws an error naming the field.
    public static func parse(_ text: String, field: String) throws(LedgerFormatError) -> ContentAddress {
        guard let address = ContentAddress(hex: text) else {
            throw LedgerFormatError(
                .invalidHex, "expected 64 lowercase hex digits, got \"\(text.prefix(80))\"", path: field)
        }
        return address
    }
}
