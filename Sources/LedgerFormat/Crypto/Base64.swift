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
        func symbol(_ chunk: UInt32, _ shift: UInt32) -> UInt8 { alphabet[Int((chunk >> shift) & 0x3F)] }
        var index = 0
        while index + 3 <= input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            out.append(symbol(chunk, 18))
            out.append(symbol(chunk, 12))
            out.append(symbol(chunk, 6))
            out.append(symbol(chunk, 0))
            index += 3
        }
        let remaining = input.count - index
        if remaining == 1 {
            let chunk = UInt32(input[index]) << 16
            out.append(symbol(chunk, 18))
            out.append(symbol(chunk, 12))
            out.append(contentsOf: "==".utf8)
        } else if remaining == 2 {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            out.append(symbol(chunk, 18))
            out.append(symbol(chunk, 12))
            out.append(symbol(chunk, 6))
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Strictly decodes padded standard base64; nil for anything else.
    public static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode(symbols: $0) }
    }

    public static func decode(bytes symbols: [UInt8]) -> [UInt8]? {
        symbols.withUnsafeBufferPointer { decode(symbols: $0) }
    }

    /// The decoding: whole quanta of four symbols, then the last, which alone may end in one or two `=`.
    /// `=` is not in the alphabet, so one anywhere else is refused as any other stray byte is.
    private static func decode(symbols: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let count = symbols.count
        guard count % 4 == 0 else { return nil }
        guard count > 0 else { return [] }
        let pad = UInt8(ascii: "=")
        let padding = symbols[count - 1] != pad ? 0 : symbols[count - 2] != pad ? 1 : 2
        let size = count / 4 * 3 - padding
        var valid = true
        let out = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            initialized = 0
            reverse.withUnsafeBufferPointer { table in
                func value(_ index: Int) -> Int8 { table[Int(symbols[index])] }
                var written = 0
                var index = 0
                while index < count - 4 {
                    let (a, b, c, d) = (value(index), value(index + 1), value(index + 2), value(index + 3))
                    // Each value is 0–63, or -1 for a byte outside the alphabet: any -1 makes the OR negative.
                    guard a | b | c | d >= 0 else {
                        valid = false
                        return
                    }
                    let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    buffer[written] = UInt8(truncatingIfNeeded: chunk >> 16)
                    buffer[written + 1] = UInt8(truncatingIfNeeded: chunk >> 8)
                    buffer[written + 2] = UInt8(truncatingIfNeeded: chunk)
                    written += 3
                    index += 4
                }
                let a = value(index)
                let b = value(index + 1)
                let c = padding == 2 ? 0 : value(index + 2)
                let d = padding >= 1 ? 0 : value(index + 3)
                let chunk = UInt32(truncatingIfNeeded: Int(a) << 18 | Int(b) << 12 | Int(c) << 6 | Int(d))
                // The bits of the last symbol no byte uses must be zero: one encoding for each byte string.
                let unused: UInt32 = padding == 2 ? 0xFFFF : padding == 1 ? 0xFF : 0
                guard a | b | c | d >= 0, chunk & unused == 0 else {
                    valid = false
                    return
                }
                for byte in 0..<(3 - padding) {
                    buffer[written + byte] = UInt8(truncatingIfNeeded: chunk >> (16 - 8 * UInt32(byte)))
                }
                initialized = size
            }
        }
        return valid ? out : nil
    }
}
