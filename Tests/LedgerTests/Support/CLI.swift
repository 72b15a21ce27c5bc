import Foundation

/// Runs the built `onym-ledger` binary (STYLE.md guideline 18: CLI tests run the real executable).
enum CLI {
    /// The build products directory: the test resources bundle sits beside the executables.
    static var binary: String {
        Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("onym-ledger").path
    }

    @discardableResult
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:])
        -> (status: Int32, stdout: String, stderr: String)
    {
        runProcess(binary, arguments, stdin: stdin, environment: environment)
    }
}
