#if canImport(Glibc)
    import Glibc
#endif

/// The bytes of a file being written, appended through a buffer of 1 MiB and written out as it fills —
/// what lets a large file of local state (a sorted table of a million entries) be written without
/// holding it whole in memory. Bytes already written out can be overwritten in place (``overwrite(_:at:)``):
/// a table's offsets, known only once its entries are written. Handed to the body of
/// ``OpenFolder/write(to:mode:exclusive:durable:_:)``, which owns the file.
public struct FileOutput: ~Copyable {
    private let descriptor: Int32
    /// The file's path, for messages.
    private let path: String
    private var buffer: [UInt8] = []
    /// The bytes appended so far: where the next one goes.
    public private(set) var position = 0

    static let bufferSize = 1 << 20

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Appends `bytes`.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) throws(DurableFile.WriteError) {
        position += bytes.count
        if buffer.count + bytes.count > Self.bufferSize { try flush() }
        if bytes.count >= Self.bufferSize {
            try Self.write(bytes, to: descriptor, at: nil, path: path)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    public mutating func append(_ bytes: [UInt8]) throws(DurableFile.WriteError) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(DurableFile.WriteError) in
            try append(UnsafeRawBufferPointer(buffer))
        }
    }

    /// Appends `count` zero bytes (room for bytes written later with ``overwrite(_:at:)``).
    public mutating func appendZeros(_ count: Int) throws(DurableFile.WriteError) {
        let zeros = [UInt8](repeating: 0, count: min(count, Self.bufferSize))
        var left = count
        while left > 0 {
            let part = min(left, zeros.count)
            try zeros.withUnsafeBufferPointer { (buffer) throws(DurableFile.WriteError) in
                try append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[..<part]))
            }
            left -= part
        }
    }

    /// Writes `bytes` over the ones appended at `offset` (which must all have been appended).
    public mutating func overwrite(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(DurableFile.WriteError) {
        precondition(offset >= 0 && offset + bytes.count <= position, "overwrite past the bytes appended")
        try flush()
        try Self.write(bytes, to: descriptor, at: offset, path: path)
    }

    /// Writes the buffered bytes out.
    mutating func flush() throws(DurableFile.WriteError) {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBufferPointer { (bytes) throws(DurableFile.WriteError) in
            try Self.write(UnsafeRawBufferPointer(bytes), to: descriptor, at: nil, path: path)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// `write` (or `pwrite` at `offset`) of all of `bytes`, again after an interruption or a short write.
    private static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int?, path: String)
        throws(DurableFile.WriteError)
    {
        var written = 0
        while written < bytes.count {
            let rest = bytes.count - written
            let result =
                offset.map { pwrite(descriptor, bytes.baseAddress! + written, rest, off_t($0 + written)) }
                ?? Glibc.write(descriptor, bytes.baseAddress! + written, rest)
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else {
                throw DurableFile.WriteError(path: path, operation: "write", errno: result < 0 ? errno : EIO)
            }
            written += result
        }
    }
}
