import Foundation

/// Runs the built binary once and stops it with SIGKILL: the writer kills itself on reaching `step` (a
/// ``CrashPoint`` armed through `ONYM_LEDGER_UNSAFE_TEST_CRASH_AT`), or the test kills it from outside after
/// `delayMicroseconds`. Output is discarded.
/// - Returns: whether SIGKILL ended it, and its exit status.
func runKilled(_ arguments: [String], environment: [String: String], step: String?, delayMicroseconds: UInt32?)
    throws -> (killed: Bool, status: Int32)
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CLI.binary)
    process.arguments = arguments
    var environment = environment
    if let step { environment["ONYM_LEDGER_UNSAFE_TEST_CRASH_AT"] = step }
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    if let delayMicroseconds {
        usleep(delayMicroseconds)
        Glibc.kill(process.processIdentifier, SIGKILL)  // not yet waited for: still this child's pid
    }
    process.waitUntilExit()
    return (
        process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL, process.terminationStatus
    )
}
