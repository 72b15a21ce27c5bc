#if canImport(Glibc)
    import Glibc
#endif

/// A file's identity as far as the file system tells it — device, inode, size, modification and change
/// times — for remembering that a file of local state or a pack was checked, and skipping the check while
/// it is unchanged (not its name or contents, which a rewritten copy can keep).
public enum FileIdentity {
    /// `info`'s identity, or nil when the file changed less than two seconds before `now`: too recent to
    /// tell a later write in the same clock tick apart (git's "racy" case).
    public static func of(_ info: stat, before now: timespec) -> String? {
        func nanoseconds(_ time: timespec) -> Int64 { Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec) }
        func recent(_ time: timespec) -> Bool { nanoseconds(now) - nanoseconds(time) < 2_000_000_000 }
        guard !recent(info.st_mtim), !recent(info.st_ctim) else { return nil }
        return of(info)
    }

    /// `info`'s identity however recent: what a remembered identity is compared with, and what a writer
    /// records for a file it has just written whole and renamed into place itself (the next version of that
    /// file is another file, created while this one exists, so it cannot have this one's inode).
    public static func of(_ info: stat) -> String {
        "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec):"
            + "\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
    }

    /// The identity of the file at `path` however recent (``of(_:)``), nil when it cannot be read.
    public static func of(path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return of(info)
    }

    /// The wall clock now, for ``of(_:before:)``, moved by ``clockOffsetSeconds``.
    public static func now() -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        time.tv_sec += clockOffsetSeconds
        return time
    }

    /// Seconds ``now()`` adds to the wall clock: 0, except in tests, which move time past the two-second
    /// window instead of sleeping through it — in their own process with
    /// `FileIdentity.$clockOffsetSeconds.withValue(3) { … }` (that task only, not the tests running beside
    /// it), in a process they start with `ONYM_LEDGER_UNSAFE_TEST_CLOCK_OFFSET_SECONDS` in its environment.
    /// The name announces the knob; nothing sets it outside the test suite.
    @TaskLocal public static var clockOffsetSeconds: Int = environmentOffsetSeconds

    private static let environmentOffsetSeconds: Int = {
        guard let value = getenv("ONYM_LEDGER_UNSAFE_TEST_CLOCK_OFFSET_SECONDS") else { return 0 }
        return Int(String(cString: value)) ?? 0
    }()
}
