/// The strict JSON parser behind ``CanonicalJSON/parse(_:)``.
///
/// Recursive descent over raw bytes. Recursion is bounded by ``Limits/maxDepth``, checked before
/// each descent, so hostile nesting cannot overflow the stack. Every other limit is checked as the
/// value grows, before more work is spent on it.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: ParseLimits
    private var position = 0
    /// Whether every byte read so far is the byte ``CanonicalEncoder`` writes for what was parsed: no
    /// whitespace, each object's keys in ascending byte order, each escape the encoder's own (`\"`, `\\`,
    /// the short forms, `\u00xx` in lowercase for the other control characters), no `-0`.
    private var isCanonical = true
    /// Whether to note where each member of the top-level object ends (``topLevelMemberEnds``).
    private let notesMemberEnds: Bool
    /// Where each member of the top-level object ends (one past its value's last byte).
    private var topLevelMemberEnds: [Int] = []

    private init(bytes: UnsafeBufferPointer<UInt8>, limits: ParseLimits, notesMemberEnds: Bool) {
        self.bytes = bytes
        self.limits = limits
        self.notesMemberEnds = notesMemberEnds
    }

    static func parseObject(_ input: some Collection<UInt8>, limits: ParseLimits = .record) throws(LedgerFormatError)
        -> JSONObject
    {
        try parse(Array(input), limits: limits, notingMemberEnds: false).object
    }

    /// Parses one top-level object and recognizes, as it reads, whether `input` is the object's canonical
    /// encoding: then the encoding is `input` itself, with where each top-level member ends (the offsets
    /// ``CanonicalEncoding`` keeps), and nothing need be encoded to know it. Nil when any byte differs from
    /// what the encoder would write.
    static func parseNotingCanonicalForm(_ input: [UInt8], limits: ParseLimits = .record) throws(LedgerFormatError)
        -> (object: JSONObject, canonicalMemberEnds: [Int]?)
    {
        try parse(input, limits: limits, notingMemberEnds: true)
    }

    /// Both entry points: the size limit, then one parser over the bytes.
    private static func parse(_ input: [UInt8], limits: ParseLimits, notingMemberEnds: Bool)
        throws(LedgerFormatError) -> (object: JSONObject, canonicalMemberEnds: [Int]?)
    {
        guard input.count <= limits.maxBytes else {
            throw LedgerFormatError(
                .tooLarge, "input is \(input.count) bytes, more than the limit of \(limits.maxBytes)")
        }
        let result: Result<(JSONObject, [Int]?), LedgerFormatError> = input.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, limits: limits, notesMemberEnds: notingMemberEnds)
            do throws(LedgerFormatError) {
                let object = try parser.parseDocument()
                return .success((object, parser.isCanonical ? parser.topLevelMemberEnds : nil))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    // MARK: - Document

    private mutating func parseDocument() throws(LedgerFormatError) -> JSONObject {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw fail(.byteOrderMark, "input starts with a UTF-8 byte-order mark", at: 0)
        }
        skipWhitespace()
        guard let first = peek() else { throw fail(.invalidJSON, "empty input") }
        guard first == UInt8(ascii: "{") else {
            if Self.startsValue(first) {
                throw fail(.notAnObject, "the top-level value must be a JSON object")
            }
            throw unexpected(first)
        }
        guard case .object(let object) = try parseValue(depth: 1) else { preconditionFailure() }
        skipWhitespace()
        if position < bytes.count {
            throw fail(.trailingBytes, "unexpected bytes after the top-level object")
        }
        return object
    }

    private static func startsValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return true
        default:
            return false
        }
    }

    // MARK: - Values

    private mutating func parseValue(depth: Int) throws(LedgerFormatError) -> JSONValue {
        guard let byte = peek() else { throw fail(.invalidJSON, "unexpected end of input, expected a value") }
        switch byte {
        case UInt8(ascii: "{"):
            return .object(try parseObject(depth: depth))
        case UInt8(ascii: "["):
            return .array(try parseArray(depth: depth))
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .integer(try parseInteger())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        default:
            throw unexpected(byte)
        }
    }

    private mutating func parseObject(depth: Int) throws(LedgerFormatError) -> JSONObject {
        guard depth <= limits.maxDepth else {
            throw fail(.tooDeep, "nesting deeper than \(limits.maxDepth) levels")
        }
        position += 1  // {
        var object = JSONObject()
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return object
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                if let byte = peek() { throw unexpected(byte, expected: "an object key") }
                throw fail(.invalidJSON, "unexpected end of input, expected an object key")
            }
            let keyOffset = position
            let key = try parseString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            if depth == 1, notesMemberEnds { topLevelMemberEnds.append(position) }
            if !object.appendIfGreatest(key, value) {
                isCanonical = false
                guard object.insert(key, value) else {
                    throw fail(.duplicateKey, "duplicate object key \"\(key)\"", at: keyOffset)
                }
            }
            guard object.count <= limits.maxMembers else {
                throw fail(.tooManyMembers, "object has more than \(limits.maxMembers) members", at: keyOffset)
            }
            skipWhitespace()
            guard let next = peek() else { throw fail(.invalidJSON, "unterminated object") }
            position += 1
            if next == UInt8(ascii: "}") { return object }
            guard next == UInt8(ascii: ",") else {
                position -= 1
                throw unexpected(next, expected: "',' or '}'")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(LedgerFormatError) -> [JSONValue] {
        guard depth <= limits.maxDepth else {
            throw fail(.tooDeep, "nesting deeper than \(limits.maxDepth) levels")
        }
        position += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            guard elements.count <= limits.maxMembers else {
                throw fail(.tooManyMembers, "array has more than \(limits.maxMembers) elements")
            }
            skipWhitespace()
            guard let next = peek() else { throw fail(.invalidJSON, "unterminated array") }
            position += 1
            if next == UInt8(ascii: "]") { return elements }
            guard next == UInt8(ascii: ",") else {
                position -= 1
                throw unexpected(next, expected: "',' or ']'")
            }
        }
    }

    // MARK: - Scalars

    private mutating func parseInteger() throws(LedgerFormatError) -> Int64 {
        let start = position
        var negative = false
        if peek() == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        guard let firstDigit = peek(), Self.isDigit(firstDigit) else {
            throw fail(.invalidJSON, "a number needs at least one digit")
        }
        var magnitude: Int64 = 0
        if firstDigit == UInt8(ascii: "0") {
            position += 1
            if let next = peek(), Self.isDigit(next) {
                throw fail(.invalidJSON, "numbers must not have leading zeros", at: start)
            }
        } else {
            while let digit = peek(), Self.isDigit(digit) {
                magnitude = magnitude * 10 + Int64(digit - UInt8(ascii: "0"))
                if magnitude > Limits.maxSafeInteger {
                    throw fail(.integerOutOfRange, "integer magnitude exceeds 2^53-1", at: start)
                }
                position += 1
            }
        }
        if let next = peek(), next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            throw fail(.floatNotAllowed, "numbers with a fraction or exponent are not allowed", at: start)
        }
        if negative, magnitude == 0 { isCanonical = false }  // `-0`: the encoder writes `0`
        return negative ? -magnitude : magnitude
    }

    private mutating func parseString() throws(LedgerFormatError) -> String {
        let start = position
        position += 1  // opening quote
        // Fast path: printable ASCII up to the closing quote (keys, hex, times — nearly every string) becomes
        // a String straight from the input; anything else continues byte by byte from where it stopped.
        var end = position
        while end < bytes.count, end - position <= limits.maxStringBytes {
            let byte = bytes[end]
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { break }
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\""), end - position <= limits.maxStringBytes {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
            position = end + 1
            return text
        }
        var scalars = Array(bytes[position..<end])
        position = end
        while true {
            guard position < bytes.count else { throw fail(.invalidJSON, "unterminated string", at: start) }
            let byte = bytes[position]
            if scalars.count > limits.maxStringBytes {
                throw fail(.stringTooLong, "string longer than \(limits.maxStringBytes) bytes", at: start)
            }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &scalars)
            case 0x00..<0x20:
                throw fail(.invalidJSON, "unescaped control character 0x\(Self.hex2(byte)) in string")
            case 0x20..<0x80:
                scalars.append(byte)
                position += 1
            default:
                try copyMultibyteSequence(into: &scalars)
            }
        }
    }

    private mutating func parseEscape(into output: inout [UInt8]) throws(LedgerFormatError) {
        let escapeStart = position
        position += 1
        guard let kind = peek() else { throw fail(.invalidJSON, "unterminated escape", at: escapeStart) }
        position += 1
        switch kind {
        case UInt8(ascii: "\""): output.append(0x22)
        case UInt8(ascii: "\\"): output.append(0x5C)
        case UInt8(ascii: "/"):
            isCanonical = false  // the encoder writes `/` as it is
            output.append(0x2F)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try parseHex4(escapeStart: escapeStart)
            if !Self.isEncodersEscape(unit, digits: bytes[(escapeStart + 2)..<position]) { isCanonical = false }
            var scalar = UInt32(unit)
            if (0xD800...0xDBFF).contains(unit) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else {
                    throw fail(
                        .loneSurrogate, "high surrogate \\u\(Self.hex4(unit)) without a low surrogate",
                        at: escapeStart)
                }
                position += 2
                let low = try parseHex4(escapeStart: escapeStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw fail(
                        .loneSurrogate, "high surrogate \\u\(Self.hex4(unit)) followed by \\u\(Self.hex4(low))",
                        at: escapeStart)
                }
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw fail(
                    .loneSurrogate, "low surrogate \\u\(Self.hex4(unit)) without a high surrogate",
                    at: escapeStart)
            }
            output.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
        default:
            throw fail(.invalidJSON, "invalid escape \\\(Character(Unicode.Scalar(kind)))", at: escapeStart)
        }
    }

    /// Whether `\u` and these four `digits`, naming `unit`, are what the encoder writes for it: a control
    /// character without a short escape, in lowercase hex.
    private static func isEncodersEscape(_ unit: UInt16, digits: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        switch unit {
        case 0x08, 0x09, 0x0A, 0x0C, 0x0D: false
        case 0..<0x20: !digits.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") }
        default: false
        }
    }

    private mutating func parseHex4(escapeStart: Int) throws(LedgerFormatError) -> UInt16 {
        guard position + 4 <= bytes.count else { throw fail(.invalidJSON, "truncated \\u escape", at: escapeStart) }
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let nibble = Self.hexValue(bytes[position]) else {
                throw fail(.invalidJSON, "\\u escape needs four hex digits", at: escapeStart)
            }
            value = value << 4 | UInt16(nibble)
            position += 1
        }
        return value
    }

    /// Validates one UTF-8 sequence starting at a byte ≥ 0x80 and copies it (RFC 3629 table 3-7:
    /// no overlongs, no surrogates, nothing above U+10FFFF).
    private mutating func copyMultibyteSequence(into output: inout [UInt8]) throws(LedgerFormatError) {
        let lead = bytes[position]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default:
            throw fail(.invalidUTF8, "byte 0x\(Self.hex2(lead)) cannot start a UTF-8 sequence")
        }
        guard position + length <= bytes.count else {
            throw fail(.invalidUTF8, "truncated UTF-8 sequence")
        }
        guard secondRange.contains(bytes[position + 1]) else {
            throw fail(.invalidUTF8, "invalid UTF-8 continuation byte 0x\(Self.hex2(bytes[position + 1]))")
        }
        for index in 2..<length where !(0x80...0xBF).contains(bytes[position + index]) {
            throw fail(.invalidUTF8, "invalid UTF-8 continuation byte 0x\(Self.hex2(bytes[position + index]))")
        }
        output.append(contentsOf: bytes[position..<(position + length)])
        position += length
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(LedgerFormatError) {
        let start = position
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected in
            position + count <= bytes.count && (0..<count).allSatisfy { bytes[position + $0] == expected[$0] }
        }
        guard matches else { throw fail(.invalidJSON, "invalid literal, expected \(literal)", at: start) }
        position += count
    }

    // MARK: - Helpers

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D:
                position += 1
                isCanonical = false  // the encoder writes no whitespace
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8) throws(LedgerFormatError) {
        guard let actual = peek() else {
            throw fail(.invalidJSON, "unexpected end of input, expected '\(Character(Unicode.Scalar(byte)))'")
        }
        guard actual == byte else { throw unexpected(actual, expected: "'\(Character(Unicode.Scalar(byte)))'") }
        position += 1
    }

    private func fail(_ code: LedgerFormatError.Code, _ reason: String, at offset: Int? = nil) -> LedgerFormatError {
        LedgerFormatError(code, reason, offset: offset ?? position)
    }

    private func unexpected(_ byte: UInt8, expected: String? = nil) -> LedgerFormatError {
        if byte >= 0x80 {
            // Distinguish a bad UTF-8 byte outside strings from an ordinary syntax error.
            return fail(.invalidJSON, "unexpected non-ASCII byte 0x\(Self.hex2(byte)) outside a string")
        }
        let shown = byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "0x\(Self.hex2(byte))"
        let suffix = expected.map { ", expected \($0)" } ?? ""
        return fail(.invalidJSON, "unexpected \(shown)\(suffix)")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func hex2(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    private static func hex4(_ unit: UInt16) -> String { hex2(UInt8(unit >> 8)) + hex2(UInt8(unit & 0xFF)) }
}
