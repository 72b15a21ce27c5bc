/// The SSH wire encoding (RFC 4251 §5): big-endian `uint32` and length-prefixed `string`s.
struct SSHWireReader {
    private let bytes: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { position == bytes.count }
    var remaining: ArraySlice<UInt8> { bytes[position...] }

    mutating func readUInt32() -> UInt32? {
        guard position + 4 <= bytes.count else { return nil }
        defer { position += 4 }
        return bytes[position..<position + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func readString() -> [UInt8]? {
        guard let length = readUInt32(), Int(length) <= bytes.count - position else { return nil }
        defer { position += Int(length) }
        return Array(bytes[position..<position + Int(length)])
    }

    mutating func readRaw(_ count: Int) -> [UInt8]? {
        guard count <= bytes.count - position else { return nil }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }
}

struct SSHWireWriter {
    private(set) var bytes: [UInt8] = []

    mutating func writeUInt32(_ value: UInt32) {
        bytes += [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    mutating func writeString(_ value: some Collection<UInt8>) {
        writeUInt32(UInt32(value.count))
        bytes += value
    }

    mutating func writeString(_ value: String) { writeString(Array(value.utf8)) }

    mutating func writeRaw(_ value: some Collection<UInt8>) { bytes += value }
}

/// PEM-style armor with base64 wrapped at 70 columns, as ssh-keygen writes it.
enum SSHArmor {
    static func wrap(_ body: [UInt8], label: String, trailingNewline: Bool) -> String {
        let encoded = Array(Base64.encode(body).utf8)
        var lines = ["-----BEGIN \(label)-----"]
        var index = 0
        while index < encoded.count {
            let end = min(index + 70, encoded.count)
            lines.append(String(decoding: encoded[index..<end], as: UTF8.self))
            index = end
        }
        lines.append("-----END \(label)-----")
        return lines.joined(separator: "\n") + (trailingNewline ? "\n" : "")
    }

    /// Unwraps exactly one armored block; nil when the text is anything else.
    static func unwrap(_ text: String, label: String) -> [UInt8]? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? line.dropLast() : line
        }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard lines.count >= 3, lines.first == "-----BEGIN \(label)-----", lines.last == "-----END \(label)-----"
        else { return nil }
        let body = lines.dropFirst().dropLast()
        guard body.allSatisfy({ !$0.isEmpty && !$0.hasPrefix("-----") }) else { return nil }
        return Base64.decode(body.joined())
    }
}
