public import LedgerFormat

/// Writes the binary files of local state: unsigned LEB128 varints, zigzag signed integers, length-prefixed
/// byte strings, fixed 32-byte addresses.
public struct ByteWriter {
    public private(set) var bytes: [UInt8] = []

    public init(reserving capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    public mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    public mutating func count(_ value: Int) { varint(UInt64(value)) }

    public mutating func signed(_ value: Int64) { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    public mutating func raw(_ data: some Collection<UInt8>) {
        count(data.count)
        bytes.append(contentsOf: data)
    }

    public mutating func string(_ text: String) { raw(text.utf8) }

    public mutating func string(_ text: WireString) { raw(text.text.utf8) }

    public mutating func address(_ value: ContentAddress) {
        let words = value.bigEndianWords
        withUnsafeBytes(of: words.0.bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: words.1.bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: words.2.bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: words.3.bigEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// Bytes as they are, with no length before them.
    public mutating func append(_ data: [UInt8]) { bytes.append(contentsOf: data) }

    /// Empties the writer, keeping its storage for the next bytes.
    public mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    /// An instant: zigzag seconds, then nanoseconds.
    public mutating func instant(_ value: Instant) {
        signed(value.seconds)
        varint(UInt64(value.nanoseconds))
    }
}

/// Reads what ``ByteWriter`` wrote. Every read checks the bounds: a truncated or corrupt file throws
/// ``Malformed`` (the caller rebuilds what the file held), never traps.
public struct ByteReader {
    public struct Malformed: Error {
        public init() {}
    }

    private let bytes: [UInt8]
    public private(set) var offset: Int

    public init(_ bytes: [UInt8], from offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    public var atEnd: Bool { offset == bytes.count }

    public mutating func varint() throws(Malformed) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count, shift < 64 else { throw Malformed() }
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    /// A count of items that each take at least one byte: never more than the bytes left.
    public mutating func count() throws(Malformed) -> Int {
        let value = try varint()
        guard value <= UInt64(bytes.count - offset) else { throw Malformed() }
        return Int(value)
    }

    public mutating func signed() throws(Malformed) -> Int64 {
        let value = try varint()
        return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    public mutating func raw() throws(Malformed) -> ArraySlice<UInt8> {
        let length = try count()
        defer { offset += length }
        return bytes[offset..<offset + length]
    }

    public mutating func string() throws(Malformed) -> String {
        String(decoding: try raw(), as: UTF8.self)
    }

    public mutating func wireString() throws(Malformed) -> WireString { WireString(try string()) }

    public mutating func address() throws(Malformed) -> ContentAddress {
        guard bytes.count - offset >= 32 else { throw Malformed() }
        defer { offset += 32 }
        let start = offset
        return bytes.withUnsafeBytes { raw in
            func word(_ index: Int) -> UInt64 {
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: start + 8 * index, as: UInt64.self))
            }
            return ContentAddress(words: (word(0), word(1), word(2), word(3)))
        }
    }

    public mutating func byte() throws(Malformed) -> UInt8 {
        guard offset < bytes.count else { throw Malformed() }
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func instant() throws(Malformed) -> Instant {
        let seconds = try signed()
        let nanoseconds = try varint()
        guard nanoseconds < 1_000_000_000 else { throw Malformed() }
        return Instant(seconds: seconds, nanoseconds: Int32(nanoseconds))
    }
}
