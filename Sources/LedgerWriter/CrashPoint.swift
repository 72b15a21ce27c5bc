#if canImport(Glibc)
    import Glibc
#endif

/// Test-only crash injection: when `ONYM_LEDGER_UNSAFE_TEST_CRASH_AT` names a step, the process
/// kills itself with SIGKILL on reaching it — so the crash tests can stop an append at every step
/// deterministically. The name announces the knob; nothing sets it outside the test suite.
enum CrashPoint: String, CaseIterable {
    case afterValidation
    case afterBlobs
    case afterTree
    case afterCommitObject
    case afterPack
    case afterReference

    private static let armed: String? = {
        guard let value = getenv("ONYM_LEDGER_UNSAFE_TEST_CRASH_AT") else { return nil }
        return String(cString: value)
    }()

    static func reach(_ point: CrashPoint) {
        guard let armed, armed == point.rawValue else { return }
        kill(getpid(), SIGKILL)
    }

    /// Test-only fault injection: when `ONYM_LEDGER_UNSAFE_TEST_FAULT_AT` names a step, reaching it throws
    /// an error the writer has no rule for — how the tests reach the internal-error path (exit 70) and see
    /// that nothing was written.
    struct InjectedFault: Error, CustomStringConvertible {
        let point: String
        var description: String { "an injected fault at \(point) (ONYM_LEDGER_UNSAFE_TEST_FAULT_AT)" }
    }

    private static let faultArmed: String? = {
        guard let value = getenv("ONYM_LEDGER_UNSAFE_TEST_FAULT_AT") else { return nil }
        return String(cString: value)
    }()

    static func fault(_ point: CrashPoint) throws(InjectedFault) {
        guard let faultArmed, faultArmed == point.rawValue else { return }
        throw InjectedFault(point: point.rawValue)
    }
}
