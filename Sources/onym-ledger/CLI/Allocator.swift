internal import CJemalloc
import LedgerStore

/// The memory allocator the verbs run on: jemalloc, linked into the executable so that it, not glibc's
/// malloc, serves every allocation of the process — the Swift runtime's, libgit2's and OpenSSL's alike
/// (docs/DECISIONS.md, "The executables run on jemalloc").
enum Allocator {
    /// jemalloc's version, as `mallctl("version")` gives it; nil when it does not answer.
    static var jemallocVersion: String? {
        var version: UnsafePointer<CChar>?
        var size = MemoryLayout<UnsafePointer<CChar>?>.size
        guard mallctl("version", &version, &size, nil, 0) == 0, let version else { return nil }
        return String(cString: version)
    }

    /// The bytes jemalloc has handed out on the calling thread so far (`mallctl("thread.allocated")`): more
    /// than nothing once the thread has allocated, if and only if jemalloc's `malloc` is the one the process
    /// calls — glibc's would leave jemalloc's count at zero.
    static var bytesServedOnThisThread: UInt64? {
        var bytes: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        guard mallctl("thread.allocated", &bytes, &size, nil, 0) == 0 else { return nil }
        return bytes
    }

    /// With `ONYM_LEDGER_TRACE` set, one trace line naming the allocator and what it has served so far.
    static func trace() {
        guard PhaseClock.enabled else { return }
        let served = bytesServedOnThisThread.map { "\($0) bytes" } ?? "(no answer)"
        PhaseClock.note("allocator: jemalloc \(jemallocVersion ?? "(no answer)"), served on the main thread: \(served)")
    }
}
