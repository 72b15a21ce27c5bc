import Foundation

/// Runs the built `onym-ledger` binary (CLI tests run the real executable).
enum CLI {
    /// The build products directory: the test resources bundle sits beside the executables.
    static var binary: String {
        Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("onym-ledger").path
    }

    /// Runs the binary. Unless the caller names a state folder (`--state`, or `XDG_STATE_HOME` in
    /// `environment`), each run gets a fresh, empty auditor state: tests never share remembered trust.
    @discardableResult
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:])
        -> (status: Int32, stdout: String, stderr: String)
    {
        var environment = environment
        if environment["XDG_STATE_HOME"] == nil && !arguments.contains("--state") {
            environment["XDG_STATE_HOME"] =
                FileManager.default.temporaryDirectory.appendingPathComponent("onym-ledger-state-\(UUID().uuidString)")
                .path
        }
        return runProcess(binary, arguments, stdin: stdin, environment: environment)
    }
}
