internal import CJemalloc
import LedgerStore

/// The memory allocator `onym-ledger` and `LedgerBench` run on: jemalloc. Linking this module links
/// libjemalloc into the executable, and its `malloc` — found before glibc's — serves the process's
/// allocations: the Swift runtime's, libgit2's and OpenSSL's alike (docs/DECISIONS.md, "The executables run
/// on jemalloc").
package enum Allocator {
    /// jemalloc's version, as `mallctl("version")` gives it; nil when it does not answer.
    package static var jemallocVersion: String? {
        var version: UnsafePointer<CChar>?
        var size = MemoryLayout<UnsafePointer<CChar>?>.size
        guard mallctl("version", &version, &size, nil, 0) == 0, let version else { return nil }
        return String(cString: version)
    }

    /// How many bytes jemalloc counts for one 4 KiB allocation of the Swift runtime on this thread
    /// (`mallctl("thread.allocated")` before and after): 4 096 or more when the runtime's `malloc` is
    /// jemalloc's, 0 when it is glibc's; nil when jemalloc does not answer.
    package static func bytesCountedForOneAllocation() -> UInt64? {
        guard let before = allocatedOnThisThread() else { return nil }
        let block = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16)
        block.storeBytes(of: 1, as: UInt8.self)
        let after = allocatedOnThisThread()
        block.deallocate()
        return after.map { $0 - before }
    }

    /// One line naming the allocator and what it counted for a 4 KiB allocation.
    package static var description: String {
        let counted = bytesCountedForOneAllocation().map { "\($0) bytes" } ?? "(no answer)"
        return "jemalloc \(jemallocVersion ?? "(no answer)"), counted for a 4 KiB allocation: \(counted)"
    }

    /// With `ONYM_LEDGER_TRACE` set, ``description`` as a trace line.
    package static func trace() {
        guard PhaseClock.enabled else { return }
        PhaseClock.note("allocator: \(description)")
    }

    /// The bytes jemalloc has handed out on this thread so far.
    private static func allocatedOnThisThread() -> UInt64? {
        var bytes: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        guard mallctl("thread.allocated", &bytes, &size, nil, 0) == 0 else { return nil }
        return bytes
    }
}
