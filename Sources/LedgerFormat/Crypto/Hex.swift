/// Lowercase hexadecimal, the ledger's only rendering of hashes and keys at the edges.
public enum Hex {
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        if let text = bytes.withContiguousStorageIfAvailable({ encode(UnsafeRawBufferPointer($0)) }) { return text }
        return Array(bytes).withUnsafeBytes { encode($0) }
    }

    /// The digits of `bytes` written straight into the string's storage: one allocation, no copy.
    static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            for (index, byte) in bytes.enumerated() {
                out[2 * index] = digit(byte >> 4)
                out[2 * index + 1] = digit(byte & 0x0F)
            }
            return bytes.count * 2
        }
    }

    /// The lowercase digit of a nibble (0–15).
    private static func digit(_ nibble: UInt8) -> UInt8 {
        let zero: UInt8 = 0x30
        let tenth: UInt8 = 0x61 - 10
        return nibble < 10 ? zero + nibble : tenth + nibble
    }

    /// Decodes hex; `lowercaseOnly` rejects `A`–`F` (the form every ledger reference uses).
    public static func decode(_ text: String, lowercaseOnly: Bool = true) -> [UInt8]? {
        var text = text
        return text.withUTF8 { utf8 -> [UInt8]? in
            guard utf8.count % 2 == 0 else { return nil }
            var valid = true
            let out = [UInt8](unsafeUninitializedCapacity: utf8.count / 2) { out, count in
                for index in 0..<utf8.count / 2 {
                    guard let high = nibble(utf8[2 * index], lowercaseOnly),
                        let low = nibble(utf8[2 * index + 1], lowercaseOnly)
                    else {
                        valid = false
                        break
                    }
                    out[index] = high << 4 | low
                    count = index + 1
                }
            }
            return valid ? out : nil
        }
    }

    static func nibble(_ byte: UInt8, _ lowercaseOnly: Bool) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F") where !lowercaseOnly: return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
