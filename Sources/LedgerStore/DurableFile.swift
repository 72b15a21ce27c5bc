#if canImport(Glibc)
    import Glibc
#endif

/// Durable file writes for the non-git files onym-ledger writes (keys, trust state): temp file →
/// fsync → rename → fsync directory, so a crash leaves the old file or the
/// new one, never a torn one.
public enum DurableFile {
    public struct WriteError: Error, CustomStringConvertible {
        public let path: String
        public let operation: String
        public let errno: Int32
        /// Why the file was refused rather than failed (a symbolic link, a FIFO, a size over the limit): the
        /// message, instead of the system error's.
        public var refusal: String? = nil

        public var description: String {
            if let refusal { return "\(path): \(refusal)" }
            return "\(path): \(operation) failed: \(String(cString: strerror(errno)))"
        }

        /// A file or folder refused for what it is: "`path` is a symbolic link, not a regular file; refused".
        static func refusing(_ path: String, kind: String, expected: String) -> WriteError {
            WriteError(
                path: path, operation: "open", errno: ELOOP,
                refusal: "is \(kind), not \(expected); refused (nothing is read or written through it)")
        }
    }

    /// Writes `bytes` to `path` with `mode`; with `exclusive`, refuses to replace an existing file.
    /// Without `durable` (a cache that is rebuilt when lost), the fsyncs are skipped: the rename still
    /// leaves the old file or the new one, but a power cut may lose the new one. The temporary file is
    /// created exclusively under a random name in `path`'s folder (``OpenFolder/write(_:to:mode:exclusive:durable:)``).
    public static func write(
        _ bytes: [UInt8], to path: String, mode: mode_t = 0o644, exclusive: Bool = false, durable: Bool = true
    ) throws(WriteError) {
        let (folder, name) = try folderAndName(path)
        try folder.write(bytes, to: name, mode: mode, exclusive: exclusive, durable: durable)
    }

    /// Writes `path` with the bytes `body` appends, streamed to the temporary file rather than held in
    /// memory (``OpenFolder/write(to:mode:exclusive:durable:_:)``); otherwise as ``write(_:to:mode:exclusive:durable:)``.
    public static func write(
        to path: String, mode: mode_t = 0o644, exclusive: Bool = false, durable: Bool = true,
        _ body: (inout FileOutput) throws(WriteError) -> Void
    ) throws(WriteError) {
        let (folder, name) = try folderAndName(path)
        try folder.write(to: name, mode: mode, exclusive: exclusive, durable: durable, body)
    }

    private static func folderAndName(_ path: String) throws(WriteError) -> (OpenFolder, String) {
        let slash = path.lastIndex(of: "/")
        let parent = slash.map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let folder = try OpenFolder.open(parent) else {
            throw WriteError(path: path, operation: "open folder", errno: ENOENT)
        }
        return (folder, name)
    }

    /// Creates `path` and every missing folder above it (`mkdir -p`).
    public static func makeFolders(_ path: String, mode: mode_t = 0o755) throws(WriteError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, mode) != 0 && errno != EEXIST {
                throw WriteError(path: current, operation: "create folder", errno: errno)
            }
        }
    }

    /// A whole regular file's bytes, or nil when it cannot be opened or is not a regular file: opened with
    /// `O_NONBLOCK` and checked with `fstat` first, so a FIFO or a device where a file should be is never
    /// waited on or read.
    public static func read(_ path: String) -> [UInt8]? {
        let file = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }
}
