#if canImport(Glibc)
    import Glibc
#endif

/// Durable file writes for the non-git files onym-ledger writes (keys, trust state): temp file →
/// fsync → rename → fsync directory (STYLE.md guideline 13), so a crash leaves the old file or the
/// new one, never a torn one.
public enum DurableFile {
    public struct WriteError: Error, CustomStringConvertible {
        public let path: String
        public let operation: String
        public let errno: Int32
        public var description: String { "\(path): \(operation) failed: \(String(cString: strerror(errno)))" }
    }

    /// Writes `bytes` to `path` with `mode`; with `exclusive`, refuses to replace an existing file.
    /// Without `durable` (a cache that is rebuilt when lost), the fsyncs are skipped: the rename still
    /// leaves the old file or the new one, but a power cut may lose the new one.
    public static func write(
        _ bytes: [UInt8], to path: String, mode: mode_t = 0o644, exclusive: Bool = false, durable: Bool = true
    ) throws(WriteError) {
        if exclusive, access(path, F_OK) == 0 {
            throw WriteError(path: path, operation: "create (file exists)", errno: EEXIST)
        }
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw WriteError(path: path, operation: "open", errno: errno) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                let saved = errno
                close(fd)
                unlink(temporary)
                throw WriteError(path: path, operation: "write", errno: saved)
            }
            written += result
        }
        guard !durable || fsync(fd) == 0 else {
            let saved = errno
            close(fd)
            unlink(temporary)
            throw WriteError(path: path, operation: "fsync", errno: saved)
        }
        close(fd)
        if exclusive {
            // link(2) fails if the target appeared meanwhile: no silent replace.
            guard link(temporary, path) == 0 else {
                let saved = errno
                unlink(temporary)
                throw WriteError(path: path, operation: "create", errno: saved)
            }
            unlink(temporary)
        } else {
            guard rename(temporary, path) == 0 else {
                let saved = errno
                unlink(temporary)
                throw WriteError(path: path, operation: "rename", errno: saved)
            }
        }
        if durable { syncDirectory(of: path) }
    }

    private static func syncDirectory(of path: String) {
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let fd = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// A whole file's bytes, or nil when it cannot be opened.
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

    public static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }
}
