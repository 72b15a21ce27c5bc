/// RFC 4648 standard base64 with padding — the encoding of every signature, device token and
/// consented manifest on the wire (reference §2, `util.rs::base64_encode`, engine `STANDARD`).
///
/// Decoding is strict like the reference's engine: padding required, no whitespace, no URL-safe
/// alphabet, and the unused bits of the last symbol must be zero (so each byte string has exactly
/// one accepted encoding).
public enum Base64 {
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let reverse: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (index, symbol) in alphabet.enumerated() { table[Int(symbol)] = Int8(index) }
        return table
    }()

    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int((chunk >> UInt32(shift)) & 0x3F)]) }
            index += 3
        }
        let remaining = input.count - index
        if remaining == 1 {
            let chunk = UInt32(input[index]) << 16
            out.append(alphabet[Int((chunk >> 18) & 0x3F)])
            out.append(alphabet[Int((chunk >> 12) & 0x3F)])
            out.append(contentsOf: "==".utf8)
        } else if remaining == 2 {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            out.append(alphabet[Int((chunk >> 18) & 0x3F)])
            out.append(alphabet[Int((chunk >> 12) & 0x3F)])
            out.append(alphabet[Int((chunk >> 6) & 0x3F)])
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Strictly decodes padded standard base64; nil for anything else.
    public static func decode(_ text: String) -> [UInt8]? {
        decode(bytes: Array(text.utf8))
    }

    public static func decode(bytes symbols: [UInt8]) -> [UInt8]? {
        guard symbols.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(symbols.count / 4 * 3)
        var index = 0
        while index < symbols.count {
            let isLast = index + 4 == symbols.count
            var values = [UInt32](repeating: 0, count: 4)
            var padding = 0
            for offset in 0..<4 {
                let symbol = symbols[index + offset]
                if symbol == UInt8(ascii: "=") {
                    // Padding only at the end of the last quantum, at most two.
                    guard isLast, offset >= 2 else { return nil }
                    padding += 1
                    continue
                }
                guard padding == 0 else { return nil }
                let value = reverse[Int(symbol)]
                guard value >= 0 else { return nil }
                values[offset] = UInt32(value)
            }
            let chunk = values[0] << 18 | values[1] << 12 | values[2] << 6 | values[3]
            switch padding {
            case 0:
                out.append(UInt8(chunk >> 16 & 0xFF))
                out.append(UInt8(chunk >> 8 & 0xFF))
                out.append(UInt8(chunk & 0xFF))
            case 1:
                guard chunk & 0xFF == 0 else { return nil }
                out.append(UInt8(chunk >> 16 & 0xFF))
                out.append(UInt8(chunk >> 8 & 0xFF))
            default:
                guard chunk & 0xFFFF == 0 else { return nil }
                out.append(UInt8(chunk >> 16 & 0xFF))
            }
            index += 4
        }
        return out
    }
}
