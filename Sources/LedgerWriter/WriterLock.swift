import LedgerFormat
import LedgerStore

#if canImport(Glibc)
    import Glibc
#endif

/// The writers' mutex: an exclusive `flock` on `<git dir>/onym-ledger-writer.lock`, held by an open
/// ``Appender`` from `open` to `close`. The kernel releases it when the holder exits or is killed, so a dead writer
/// never blocks the next one (docs/DECISIONS.md, "A killed writer never blocks the next").
///
/// Ledger refs are written only by onym-ledger's writers, each under this lock; so once the lock is
/// held, a ref lock file (`refs/heads/main.lock`, `packed-refs.lock`) can only be a dead writer's, and
/// is removed. A lock held by a live writer is waited for, then reported with the holder's pid.
final class WriterLock {
    static let fileName = "onym-ledger-writer.lock"
    /// How long a writer waits for another live writer (`ONYM_LEDGER_LOCK_TIMEOUT_SECONDS` overrides).
    static let defaultTimeoutSeconds = 60.0

    /// The lock file's descriptor while held; -1 once released.
    private var fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit { release() }

    /// Takes the lock of the repository whose git directory is `gitDirectory` (waiting for a live holder up
    /// to the timeout), and removes the ref lock files a killed writer left; held until ``release()``.
    static func acquire(gitDirectory: String) throws(AppendError) -> WriterLock {
        let path = gitDirectory + (gitDirectory.hasSuffix("/") ? "" : "/") + fileName
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw AppendError(
                source: gitDirectory, rule: "writer.lock",
                reason: "cannot open the writer lock \(path): \(String(cString: strerror(errno)))")
        }
        let lock = WriterLock(fd: fd)  // released (the descriptor closed) if taking it fails
        let deadline = monotonicSeconds() + timeoutSeconds()
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, monotonicSeconds() < deadline else {
                throw AppendError(
                    source: gitDirectory, rule: "writer.locked",
                    reason: "another onym-ledger writer (\(holder(fd))) holds \(path) and is still running; "
                        + "nothing was written — wait for it to finish, or stop it")
            }
            usleep(5_000)
        }
        let note = "pid \(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = note.withCString { pwrite(fd, $0, strlen($0), 0) }
        recoverStaleRefLocks(gitDirectory)
        return lock
    }

    /// Releases the lock: closing the descriptor releases the flock. Does nothing the second time.
    func release() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }

    /// Removes ref lock files a killed writer left (only ever called with the writer lock held).
    private static func recoverStaleRefLocks(_ gitDirectory: String) {
        let base = gitDirectory + (gitDirectory.hasSuffix("/") ? "" : "/")
        for name in [LedgerLayout.branch + ".lock", "packed-refs.lock"] {
            unlink(base + name)
        }
    }

    private static func holder(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = pread(fd, &buffer, 63, 0)
        let text =
            count > 0
            ? String(String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").first ?? "") : ""
        return text.isEmpty ? "pid unknown" : text
    }

    private static func timeoutSeconds() -> Double {
        guard let text = getenv("ONYM_LEDGER_LOCK_TIMEOUT_SECONDS").map({ String(cString: $0) }),
            let seconds = Double(text), seconds >= 0
        else { return defaultTimeoutSeconds }
        return seconds
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
