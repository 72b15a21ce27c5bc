/// The reference's canonical byte form (reference §1.1): serde_json's compact output over a
/// `BTreeMap`, i.e. keys in UTF-8 byte order at every depth, no whitespace, `/` unescaped,
/// non-ASCII raw, `"` and `\` escaped, U+0000–U+001F escaped with the short forms `\b \t \n \f \r`
/// and `\u00XX` (lowercase hex) for the rest, DEL and U+2028/2029 raw.
struct CanonicalEncoder {
    private(set) var output: [UInt8] = []

    init(capacity: Int = 512) {
        output.reserveCapacity(capacity)
    }

    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .integer(let number): append(String(number))
        case .string(let text): writeString(text)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            write(object)
        }
    }

    mutating func write(_ object: JSONObject) {
        write(object) { _ in }
    }

    /// Writes `object`, telling `memberEnded` where each of its members ends (one past its value's last byte).
    mutating func write(_ object: JSONObject, memberEnded: (Int) -> Void) {
        output.append(UInt8(ascii: "{"))
        for (index, member) in object.members.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            writeString(member.key)
            output.append(UInt8(ascii: ":"))
            write(member.value)
            memberEnded(output.count)
        }
        output.append(UInt8(ascii: "}"))
    }

    /// An object given as its members in their keys' byte order: the bytes ``write(_:)`` gives the same
    /// `JSONObject`, without building and sorting it (a commit's log entries, one a file, and its write
    /// requests, one a write, are written so).
    mutating func writeMembers(_ members: KeyValuePairs<String, JSONValue>) {
        assert(zip(members, members.dropFirst()).allSatisfy { $0.key.utf8Precedes($1.key) })
        output.append(UInt8(ascii: "{"))
        for (index, member) in members.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            writeString(member.key)
            output.append(UInt8(ascii: ":"))
            write(member.value)
        }
        output.append(UInt8(ascii: "}"))
    }

    /// A line break between the objects of newline-delimited JSON.
    mutating func writeLineBreak() {
        output.append(0x0A)
    }

    /// A JSON string: its UTF-8 as it is, but `"`, `\\` and the control characters escaped (the short
    /// escapes where JSON has one, else `\\u00XX`). Runs of bytes that need no escape are copied whole.
    private mutating func writeString(_ text: String) {
        output.append(UInt8(ascii: "\""))
        // A native string's bytes in place (no copy of the string to call the mutating `withUTF8` on).
        if text.utf8.withContiguousStorageIfAvailable({ writeEscaping($0) }) == nil {
            var copy = text
            copy.withUTF8 { writeEscaping($0) }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// A string's bytes, escaped: runs that need no escape copied whole.
    private mutating func writeEscaping(_ bytes: UnsafeBufferPointer<UInt8>) {
        var run = 0
        for index in bytes.indices {
            let byte = bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
            writeEscape(byte)
            run = index + 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
    }

    private mutating func writeEscape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case 0x08: append("\\b")
        case 0x09: append("\\t")
        case 0x0A: append("\\n")
        case 0x0C: append("\\f")
        case 0x0D: append("\\r")
        default:
            let digits: [UInt8] = Array("0123456789abcdef".utf8)
            append("\\u00")
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0xF)])
        }
    }

    private mutating func append(_ text: String) {
        output.append(contentsOf: text.utf8)
    }
}
