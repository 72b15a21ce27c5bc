/// The one error type of the format layer: a code to match on, a human reason, and where.
///
/// Errors compare by ``code`` only, so tests can write
/// `#expect(throws: LedgerFormatError(.duplicateKey))`-style checks via ``Code``.
public struct LedgerFormatError: Error, Sendable, CustomStringConvertible {
    /// A stable, machine-readable error code (also the vector files' expected-error names).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        public var description: String { name }
    }

    public let code: Code
    public let reason: String
    /// Byte offset into the input, for parse errors.
    public let offset: Int?
    /// JSON path (`$.verdict.marks`) for shape and rule errors.
    public let path: String?

    public init(_ code: Code, _ reason: String, offset: Int? = nil, path: String? = nil) {
        self.code = code
        self.reason = reason
        self.offset = offset
        self.path = path
    }

    public var description: String {
        var location = ""
        if let path { location += " at \(path)" }
        if let offset { location += " (byte \(offset))" }
        return "\(code)\(location): \(reason)"
    }

    /// A copy whose path is prefixed with `prefix` (used when a nested decoder reports).
    public func nested(under prefix: String) -> LedgerFormatError {
        let joined: String
        if let path, path.hasPrefix("$") {
            joined = prefix + path.dropFirst()
        } else {
            joined = prefix
        }
        return LedgerFormatError(code, reason, offset: offset, path: joined)
    }
}

extension LedgerFormatError: Equatable {
    public static func == (lhs: LedgerFormatError, rhs: LedgerFormatError) -> Bool { lhs.code == rhs.code }
}

extension LedgerFormatError.Code {
    // MARK: - Canonical JSON parsing
    /// The bytes are not JSON (unexpected character, unterminated value, bad escape, leading zero…).
    public static let invalidJSON = Self("invalidJSON")
    /// A byte sequence that is not UTF-8 (overlong, surrogate code point, truncated, out of range).
    public static let invalidUTF8 = Self("invalidUTF8")
    /// A `\uD800`–`\uDFFF` escape that is not part of a well-formed surrogate pair.
    public static let loneSurrogate = Self("loneSurrogate")
    /// An object names the same key twice (compared by UTF-8 bytes).
    public static let duplicateKey = Self("duplicateKey")
    /// A number with a fraction or exponent: the ledger's JSON is integers only.
    public static let floatNotAllowed = Self("floatNotAllowed")
    /// An integer outside ±(2^53 − 1).
    public static let integerOutOfRange = Self("integerOutOfRange")
    /// Bytes after the top-level value (other than JSON whitespace).
    public static let trailingBytes = Self("trailingBytes")
    /// The input starts with a UTF-8 byte-order mark.
    public static let byteOrderMark = Self("byteOrderMark")
    /// The top-level value is not an object.
    public static let notAnObject = Self("notAnObject")
    /// The input is larger than ``Limits/maxRecordBytes``.
    public static let tooLarge = Self("tooLarge")
    /// Nesting deeper than ``Limits/maxDepth``.
    public static let tooDeep = Self("tooDeep")
    /// A string longer than ``Limits/maxStringBytes``.
    public static let stringTooLong = Self("stringTooLong")
    /// An object or array with more than ``Limits/maxMembers`` members.
    public static let tooManyMembers = Self("tooManyMembers")
    /// Valid JSON, but not the canonical byte form.
    public static let nonCanonical = Self("nonCanonical")

    // MARK: - Records and fields
    public static let missingField = Self("missingField")
    public static let unknownField = Self("unknownField")
    public static let wrongType = Self("wrongType")
    public static let invalidValue = Self("invalidValue")
    public static let unknownKind = Self("unknownKind")

    // MARK: - Encodings
    public static let invalidHex = Self("invalidHex")
    public static let invalidBase64 = Self("invalidBase64")
    public static let invalidKey = Self("invalidKey")
    public static let invalidSignature = Self("invalidSignature")
    public static let invalidTimestamp = Self("invalidTimestamp")
    public static let invalidDuration = Self("invalidDuration")
    public static let invalidSSHKey = Self("invalidSSHKey")
    public static let contentAddressMismatch = Self("contentAddressMismatch")
}
