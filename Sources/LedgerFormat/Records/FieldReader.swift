/// Typed, path-aware access to an object's fields for the record decoders.
///
/// Every error names the JSON path (`$.verdict.marks.banned`) and the rule it broke.
public struct FieldReader: Sendable {
    public let object: JSONObject
    public let path: String

    public init(_ object: JSONObject, path: String = "$") {
        self.object = object
        self.path = path
    }

    public func fieldPath(_ key: String) -> String { "\(path).\(key)" }

    public func value(_ key: String) throws(LedgerFormatError) -> JSONValue {
        guard let value = object[key] else {
            throw LedgerFormatError(.missingField, "required field \"\(key)\" is missing", path: fieldPath(key))
        }
        return value
    }

    public func has(_ key: String) -> Bool { object[key] != nil }

    public func string(_ key: String) throws(LedgerFormatError) -> String {
        let found = try value(key)
        guard case .string(let text) = found else { throw wrongType(key, "a string", found) }
        return text
    }

    public func optionalString(_ key: String) throws(LedgerFormatError) -> String? {
        guard has(key) else { return nil }
        return try string(key)
    }

    /// A required string that must not be empty after trimming whitespace.
    public func nonEmptyString(_ key: String) throws(LedgerFormatError) -> String {
        let text = try string(key)
        guard !text.trimmingWhitespace.isEmpty else {
            throw LedgerFormatError(.invalidValue, "\"\(key)\" must not be empty", path: fieldPath(key))
        }
        return text
    }

    /// A required string that is matched or grouped by its bytes (``WireString``).
    public func wireString(_ key: String) throws(LedgerFormatError) -> WireString { WireString(try string(key)) }

    public func optionalWireString(_ key: String) throws(LedgerFormatError) -> WireString? {
        guard has(key) else { return nil }
        return try wireString(key)
    }

    /// A required ``WireString`` that must not be empty after trimming whitespace.
    public func nonEmptyWireString(_ key: String) throws(LedgerFormatError) -> WireString {
        WireString(try nonEmptyString(key))
    }

    public func integer(_ key: String) throws(LedgerFormatError) -> Int64 {
        let found = try value(key)
        guard case .integer(let number) = found else { throw wrongType(key, "an integer", found) }
        return number
    }

    public func bool(_ key: String) throws(LedgerFormatError) -> Bool {
        let found = try value(key)
        guard case .bool(let flag) = found else { throw wrongType(key, "a boolean", found) }
        return flag
    }

    public func array(_ key: String) throws(LedgerFormatError) -> [JSONValue] {
        let found = try value(key)
        guard case .array(let elements) = found else { throw wrongType(key, "an array", found) }
        return elements
    }

    public func stringArray(_ key: String) throws(LedgerFormatError) -> [String] {
        var strings: [String] = []
        for (index, element) in try array(key).enumerated() {
            guard case .string(let text) = element else {
                throw LedgerFormatError(
                    .wrongType, "expected a string, found \(element.typeName)",
                    path: "\(fieldPath(key))[\(index)]")
            }
            strings.append(text)
        }
        return strings
    }

    public func wireStringArray(_ key: String) throws(LedgerFormatError) -> [WireString] {
        try stringArray(key).map { WireString($0) }
    }

    public func object(_ key: String) throws(LedgerFormatError) -> FieldReader {
        let found = try value(key)
        guard case .object(let nested) = found else { throw wrongType(key, "an object", found) }
        return FieldReader(nested, path: fieldPath(key))
    }

    public func optionalObject(_ key: String) throws(LedgerFormatError) -> FieldReader? {
        guard has(key) else { return nil }
        return try object(key)
    }

    public func timestamp(_ key: String) throws(LedgerFormatError) -> Instant {
        try Instant.parse(try string(key), field: fieldPath(key))
    }

    public func optionalTimestamp(_ key: String) throws(LedgerFormatError) -> Instant? {
        guard has(key) else { return nil }
        return try timestamp(key)
    }

    public func contentAddress(_ key: String) throws(LedgerFormatError) -> ContentAddress {
        try ContentAddress.parse(try string(key), field: fieldPath(key))
    }

    public func onymKey(_ key: String) throws(LedgerFormatError) -> Ed25519.PublicKey {
        try OnymKey.parse(try string(key), field: fieldPath(key))
    }

    /// Requires a version field to equal `expected` (the ledger refuses versions whose rules it
    /// does not know; docs/DECISIONS.md "Versions").
    public func version(_ key: String, expected: Int64 = 1) throws(LedgerFormatError) {
        let found = try integer(key)
        guard found == expected else {
            throw LedgerFormatError(
                .invalidValue, "\"\(key)\" must be \(expected), found \(found)", path: fieldPath(key))
        }
    }

    /// Rejects any key not in `allowed` (for the ledger's own record kinds, which are closed).
    ///
    /// Keys compare by their bytes, as the object's own lookups and duplicate checks do (docs/FORMAT.md,
    /// "Canonical JSON"; docs/DECISIONS.md, "Non-ASCII keys"), never by Swift's canonical equivalence:
    /// `"interface\u{212A}eys"` (a Kelvin sign) is not `interfaceKeys`. An object holding no other key holds as many allowed keys as it has keys, so
    /// the common case costs one lookup an allowed key and no hashing.
    public func rejectUnknownKeys(allowed: Set<String>) throws(LedgerFormatError) {
        var known = 0
        for key in allowed where object[key] != nil { known += 1 }
        guard known < object.count else { return }
        for key in object.keys where !allowed.contains(where: { $0.hasSameBytes(as: key) }) {
            throw LedgerFormatError(.unknownField, "unknown field \"\(key)\"", path: fieldPath(key))
        }
    }

    /// Requires an `onym:component:` identifier: its bytes begin with the prefix's and go on after it.
    public func componentId(_ key: String) throws(LedgerFormatError) -> WireString {
        let text = try wireString(key)
        guard text.hasBytePrefix("onym:component:"), text.byteCount > "onym:component:".utf8.count else {
            throw LedgerFormatError(.invalidValue, "expected an onym:component:<id> identifier", path: fieldPath(key))
        }
        return text
    }

    private func wrongType(_ key: String, _ expected: String, _ found: JSONValue) -> LedgerFormatError {
        LedgerFormatError(.wrongType, "expected \(expected), found \(found.typeName)", path: fieldPath(key))
    }
}

extension String {
    /// The string without leading and trailing Unicode whitespace (Rust's `str::trim`).
    public var trimmingWhitespace: Substring {
        // The usual value begins and ends with an ASCII character that is not whitespace: nothing to trim,
        // and no scalar's properties looked up.
        if let first = utf8.first, let last = utf8.last, Self.isASCIIOtherThanWhitespace(first),
            Self.isASCIIOtherThanWhitespace(last)
        {
            return self[...]
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return Substring(scalars[first...last])
    }

    /// Whether `byte` is an ASCII character without Unicode's White_Space property: all but tab, line feed,
    /// vertical tab, form feed, carriage return (U+0009–U+000D) and space.
    static func isASCIIOtherThanWhitespace(_ byte: UInt8) -> Bool {
        byte < 0x80 && byte != 0x20 && !(0x09...0x0D).contains(byte)
    }
}
