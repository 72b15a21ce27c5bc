import Foundation

/// The oracle's own reading of records: Foundation's `JSONSerialization` for parsing, and a small
/// canonicalizer and SHA-256 of its own for content addresses — none of the project's `CanonicalJSON`,
/// `SHA256` or record types.
///
/// onym-wire §1.1: "Remove the named key(s) structurally, at the top level only … every object at every
/// depth is emitted with keys sorted by UTF-8 byte order … none (compact) … `/` is NOT escaped … `"` and
/// `\` escaped; control characters U+0000–U+001F escaped (`\b \t \n \f \r` short forms, the rest as
/// `\u00XX` lowercase hex); non-ASCII emitted as raw UTF-8". §1.3: "`verdictRef` | `sha256_hex(
/// verdict_signing_bytes(verdict))` — without `signature`", lowercase hex, no prefix.
///
/// Covers the shapes the generator emits: objects, arrays, strings, booleans and integers. (Keys that
/// differ only by Unicode canonical equivalence would merge in a Swift dictionary; none are emitted.)
enum OracleJSON {
    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    static func object(_ bytes: [UInt8], _ what: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw Unreadable(description: "\(what): the top level is not a JSON object")
        }
        return object
    }

    /// `sha256_hex(canonical bytes of `object` without the top-level `omitting` key)`.
    static func contentAddress(_ object: [String: Any], omitting: String) throws -> String {
        var unsigned = object
        unsigned.removeValue(forKey: omitting)
        return OracleSHA256.hex(Array(try canonical(unsigned).utf8))
    }

    static func canonical(_ value: Any) throws -> String {
        var out = ""
        try write(value, to: &out)
        return out
    }

    private static let booleanType = ObjectIdentifier(type(of: NSNumber(value: true)))

    private static func write(_ value: Any, to out: inout String) throws {
        switch value {
        case let object as [String: Any]:
            out += "{"
            let keys = object.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            for (index, key) in keys.enumerated() {
                if index > 0 { out += "," }
                out += quoted(key) + ":"
                try write(object[key]!, to: &out)
            }
            out += "}"
        case let array as [Any]:
            out += "["
            for (index, element) in array.enumerated() {
                if index > 0 { out += "," }
                try write(element, to: &out)
            }
            out += "]"
        case let string as String:
            out += quoted(string)
        case let number as NSNumber:
            if ObjectIdentifier(type(of: number)) == booleanType {
                out += number.boolValue ? "true" : "false"
            } else if let integer = Int64(exactly: number), Double(integer) == number.doubleValue {
                out += String(integer)
            } else {
                throw Unreadable(description: "a non-integer number (\(number)) has no portable canonical form")
            }
        case is NSNull:
            out += "null"
        default:
            throw Unreadable(description: "an unexpected JSON value \(type(of: value))")
        }
    }

    /// A JSON string literal by the reference's escaping rules (also what the generator writes).
    static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{08}": out += "\\b"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\u{0C}": out += "\\f"
            case "\r": out += "\\r"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// FIPS 180-4 SHA-256, written out so that the oracle's content addresses owe nothing to the project.
enum OracleSHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    static func hex(_ message: [UInt8]) -> String {
        var state: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        var padded = message + [0x80]
        while padded.count % 64 != 56 { padded.append(0) }
        let bitLength = UInt64(message.count) * 8
        for shift in stride(from: 56, through: 0, by: -8) {
            padded.append(UInt8(truncatingIfNeeded: bitLength >> shift))
        }
        var schedule = [UInt32](repeating: 0, count: 64)
        for block in stride(from: 0, to: padded.count, by: 64) {
            for word in 0..<16 {
                schedule[word] = padded[block + word * 4..<block + word * 4 + 4].reduce(0) { $0 << 8 | UInt32($1) }
            }
            for word in 16..<64 {
                let s0 = rotate(schedule[word - 15], 7) ^ rotate(schedule[word - 15], 18) ^ (schedule[word - 15] >> 3)
                let s1 = rotate(schedule[word - 2], 17) ^ rotate(schedule[word - 2], 19) ^ (schedule[word - 2] >> 10)
                schedule[word] = schedule[word - 16] &+ s0 &+ schedule[word - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = (
                state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
            )
            for round in 0..<64 {
                let choice = (e & f) ^ (~e & g)
                let t1 =
                    h &+ (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) &+ choice &+ roundConstants[round]
                    &+ schedule[round]
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let t2 = (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) &+ majority
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            for (index, value) in [a, b, c, d, e, f, g, h].enumerated() { state[index] &+= value }
        }
        return state.map { word in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }.joined()
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { value >> count | value << (32 - count) }
}
