#if canImport(Glibc)
    import Glibc
#endif

/// Accumulated time per verification phase, printed on stderr at the end when `ONYM_LEDGER_TRACE`
/// is set (how BENCHMARKS.md's profile was taken). Silent and nearly free otherwise.
package final class PhaseClock {
    package static let enabled = getenv("ONYM_LEDGER_TRACE") != nil
    private var totals: [(String, Double)] = []
    private var last = PhaseClock.now()

    package init() {}

    package static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    package func lap(_ phase: String) {
        guard Self.enabled else { return }
        let current = Self.now()
        if let index = totals.firstIndex(where: { $0.0 == phase }) {
            totals[index].1 += current - last
        } else {
            totals.append((phase, current - last))
        }
        last = current
    }

    package func report(prefix: String = "") {
        for (phase, seconds) in totals { Self.note("\(prefix)\(phase) \(Int(seconds * 1000)) ms") }
    }

    /// One `trace:` line on stderr, when tracing is on.
    package static func note(_ text: String) {
        guard enabled else { return }
        let line = Array("trace: \(text)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
