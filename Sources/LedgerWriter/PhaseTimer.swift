#if canImport(Glibc)
    import Glibc
#endif

/// Prints how long each step of an append took, to standard error, when `ONYM_LEDGER_TRACE` is set
/// (used to find where time goes; see BENCHMARKS.md). Silent otherwise.
struct PhaseTimer {
    private static let enabled = getenv("ONYM_LEDGER_TRACE") != nil
    private var last = PhaseTimer.now()

    private static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    mutating func lap(_ phase: String) {
        guard Self.enabled else { return }
        let current = Self.now()
        let line = Array("trace: \(phase) \(Int((current - last) * 1000)) ms\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        last = current
    }
}
