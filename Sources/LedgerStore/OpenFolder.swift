#if canImport(Glibc)
    import Glibc
#endif

/// A folder opened once, whose files are read and written relative to its descriptor (`openat`, `mkdirat`,
/// `renameat`, `linkat`) and never through a symbolic link inside it: a folder someone else can write to
/// (a web root `publish` fills, a state folder) cannot redirect a write outside it, swap a temporary file
/// for a link, or stall a reader on a FIFO.
///
/// * Folders are opened with `O_DIRECTORY | O_NOFOLLOW`: a link where a folder should be is refused.
/// * Files are opened for reading with `O_NOFOLLOW | O_NONBLOCK` and checked with `fstat` before a byte is
///   read: a link, a FIFO, a socket or a device is refused, and opening a FIFO never waits for a writer.
/// * A write goes to a temporary file created with `O_CREAT | O_EXCL | O_NOFOLLOW` under a random name —
///   never an existing file, never through a planted link — then is renamed (or, exclusively, linked) over
///   the name, which replaces a link there rather than writing through it.
///
/// The folder's own path is followed as given: the caller named it.
public final class OpenFolder: Sendable {
    /// The folder's path, for messages.
    public let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Opens the folder at `path`, creating it (and the folders above it) when `create`; nil when it does not
    /// exist and not `create`.
    public static func open(_ path: String, create: Bool = false) throws(DurableFile.WriteError) -> OpenFolder? {
        if create { try DurableFile.makeFolders(path) }
        let descriptor = Glibc.open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw DurableFile.WriteError(path: path, operation: "open folder", errno: errno)
        }
        return OpenFolder(path: path, descriptor: descriptor)
    }

    /// The folder `name` (one path component) inside this one: created when missing and `create`, nil when
    /// missing and not `create`. A symbolic link or anything else that is not a folder is refused.
    public func folder(_ name: String, create: Bool) throws(DurableFile.WriteError) -> OpenFolder? {
        let full = child(name)
        if create, mkdirat(descriptor, name, 0o755) != 0, errno != EEXIST {
            throw DurableFile.WriteError(path: full, operation: "create folder", errno: errno)
        }
        let opened = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard opened >= 0 else {
            let saved = errno
            if saved == ENOENT && !create { return nil }
            if saved == ELOOP || saved == ENOTDIR {
                throw DurableFile.WriteError.refusing(full, kind: try kind(of: name), expected: "a folder")
            }
            throw DurableFile.WriteError(path: full, operation: "open folder", errno: saved)
        }
        return OpenFolder(path: full, descriptor: opened)
    }

    /// The folder at `relative` (components separated by `/`), each one opened as ``folder(_:create:)`` does.
    public func folder(at relative: some StringProtocol, create: Bool) throws(DurableFile.WriteError)
        -> OpenFolder?
    {
        var current = self
        for name in relative.split(separator: "/") {
            guard let next = try current.folder(String(name), create: create) else { return nil }
            current = next
        }
        return current
    }

    /// The bytes of the regular file `name`, or nil when there is none. A symbolic link, a FIFO, a device or
    /// a folder is refused without reading (or waiting on) it; a file over `limit` bytes is refused.
    public func read(_ name: String, limit: Int) throws(DurableFile.WriteError) -> [UInt8]? {
        let full = child(name)
        let file = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else {
            let saved = errno
            if saved == ENOENT { return nil }
            if saved == ELOOP {
                throw DurableFile.WriteError.refusing(full, kind: "a symbolic link", expected: "a regular file")
            }
            throw DurableFile.WriteError(path: full, operation: "open", errno: saved)
        }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0 else {
            throw DurableFile.WriteError(path: full, operation: "stat", errno: errno)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw DurableFile.WriteError.refusing(full, kind: Self.kindName(status.st_mode), expected: "a regular file")
        }
        guard status.st_size <= limit else {
            throw DurableFile.WriteError(
                path: full, operation: "read", errno: EFBIG, refusal: "is \(status.st_size) bytes, over \(limit)")
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let result = bytes.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress! + count, $0.count - count) }
            if result < 0 && errno == EINTR { continue }
            guard result >= 0 else { throw DurableFile.WriteError(path: full, operation: "read", errno: errno) }
            if result == 0 { break }
            count += result
        }
        guard count <= limit else {
            throw DurableFile.WriteError(
                path: full, operation: "read", errno: EFBIG, refusal: "grew over \(limit) bytes while read")
        }
        return Array(bytes[..<count])
    }

    /// Writes `bytes` to the file `name` in this folder: a temporary file created exclusively under a random
    /// name, written, synced when `durable`, then renamed over `name` — or, when `exclusive`, linked to it,
    /// which fails if `name` exists. A crash leaves the old file or the new one, never a torn one.
    public func write(
        _ bytes: [UInt8], to name: String, mode: mode_t = 0o644, exclusive: Bool = false, durable: Bool = true
    ) throws(DurableFile.WriteError) {
        try write(to: name, mode: mode, exclusive: exclusive, durable: durable) {
            (output) throws(DurableFile.WriteError) in
            try output.append(bytes)
        }
    }

    /// Writes the file `name` in this folder with the bytes `body` appends to its output, as
    /// ``write(_:to:mode:exclusive:durable:)`` does — through a temporary file, renamed or linked over `name`
    /// only once `body` returns and the bytes are out — without holding them all in memory. When `body` or a
    /// write throws, the temporary file is removed and `name` is untouched.
    public func write(
        to name: String, mode: mode_t = 0o644, exclusive: Bool = false, durable: Bool = true,
        _ body: (inout FileOutput) throws(DurableFile.WriteError) -> Void
    ) throws(DurableFile.WriteError) {
        let full = child(name)
        let (file, temporary) = try createTemporary(for: name, mode: mode)
        var output = FileOutput(descriptor: file, path: full)
        do {
            try body(&output)
            try output.flush()
        } catch {
            _ = abandon(file, temporary, full, error.operation)
            throw error
        }
        guard !durable || fsync(file) == 0 else { throw abandon(file, temporary, full, "fsync") }
        close(file)
        if exclusive {
            guard linkat(descriptor, temporary, descriptor, name, 0) == 0 else {
                throw abandon(nil, temporary, full, "create")
            }
            unlinkat(descriptor, temporary, 0)
        } else {
            guard renameat(descriptor, temporary, descriptor, name) == 0 else {
                throw abandon(nil, temporary, full, "rename")
            }
        }
        if durable { fsync(descriptor) }
    }

    /// `name.tmp-<16 random hex digits>`, created with `O_EXCL | O_NOFOLLOW`: a name taken by anything
    /// (a planted link or FIFO, another writer's file) is skipped, never opened.
    private func createTemporary(for name: String, mode: mode_t) throws(DurableFile.WriteError) -> (Int32, String) {
        for _ in 0..<16 {
            let suffix = String(UInt64.random(in: .min ... .max), radix: 16)
            let temporary = "\(name).tmp-\(suffix)"
            let file = openat(
                descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if file >= 0 { return (file, temporary) }
            guard errno == EEXIST else {
                throw DurableFile.WriteError(path: child(name), operation: "create temporary file", errno: errno)
            }
        }
        throw DurableFile.WriteError(path: child(name), operation: "create temporary file", errno: EEXIST)
    }

    /// Closes and removes a temporary file after `operation` failed, returning the error to throw.
    private func abandon(_ file: Int32?, _ temporary: String, _ full: String, _ operation: String)
        -> DurableFile.WriteError
    {
        let saved = errno
        if let file { close(file) }
        unlinkat(descriptor, temporary, 0)
        return DurableFile.WriteError(path: full, operation: operation, errno: saved)
    }

    private func child(_ name: String) -> String { path.isEmpty || path == "." ? name : path + "/" + name }

    /// What `name` is, read without following it (for a refusal's message).
    private func kind(of name: String) throws(DurableFile.WriteError) -> String {
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return "not a folder" }
        return Self.kindName(status.st_mode)
    }

    private static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFDIR: "a folder"
        case S_IFREG: "a regular file"
        default: "a special file"
        }
    }
}
