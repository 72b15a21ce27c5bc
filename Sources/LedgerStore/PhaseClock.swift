#if canImport(Glibc)
    import Glibc
#endif

/// Accumulated time per phase of a verification or an append, printed on stderr when `ONYM_LEDGER_TRACE` is
/// set (how BENCHMARKS.md's profiles were taken). Silent and nearly free otherwise. The phases one clock
/// times do not overlap; a clock on another thread (a pack merge written beside the next batches) prints
/// its lines among them.
///
/// Each phase reports its wall time and the CPU time of the thread that timed it: on a shared machine the
/// wall time of a phase includes the time its thread waited for a core, its CPU time does not.
package final class PhaseClock {
    package static let enabled = getenv("ONYM_LEDGER_TRACE") != nil
    private var totals: [(phase: String, wall: Double, cpu: Double)] = []
    private var last = PhaseClock.now()
    private var lastCPU = PhaseClock.threadCPU()

    package init() {}

    package static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// The CPU time the calling thread has used so far, in seconds.
    package static func threadCPU() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    package func lap(_ phase: String) {
        guard Self.enabled else { return }
        let current = Self.now()
        let currentCPU = Self.threadCPU()
        if let index = totals.firstIndex(where: { $0.phase == phase }) {
            totals[index].wall += current - last
            totals[index].cpu += currentCPU - lastCPU
        } else {
            totals.append((phase, current - last, currentCPU - lastCPU))
        }
        last = current
        lastCPU = currentCPU
    }

    package func report(prefix: String = "") {
        for total in totals {
            Self.note(
                "\(prefix)\(total.phase) \(Self.milliseconds(total.wall)) ms (thread CPU \(Self.milliseconds(total.cpu)) ms)"
            )
        }
        let wall = totals.reduce(0) { $0 + $1.wall }
        let cpu = totals.reduce(0) { $0 + $1.cpu }
        Self.note("\(prefix)all phases \(Self.milliseconds(wall)) ms (thread CPU \(Self.milliseconds(cpu)) ms)")
    }

    /// `seconds` in milliseconds to the microsecond ("12.345"): a phase of a small batch takes less than one.
    static func milliseconds(_ seconds: Double) -> String {
        let micros = Int((max(0, seconds) * 1_000_000).rounded())
        let fraction = String(micros % 1000)
        return "\(micros / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// One `trace:` line on stderr, when tracing is on.
    package static func note(_ text: String) {
        guard enabled else { return }
        let line = Array("trace: \(text)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
