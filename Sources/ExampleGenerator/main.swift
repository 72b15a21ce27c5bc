import Foundation

/// `example-generator --scenario FILE --root DIR [--actors FILE]`: plays ledger-example/scenario.txt into
/// DIR/inputs (each batch's input files) and DIR/replay.sh (the plain onym-ledger commands that append
/// them), which `make example` then runs to build the ledger (see ledger-example/README.md).
func main() -> Int32 {
    var arguments = Array(CommandLine.arguments.dropFirst())
    func value(_ name: String) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        defer { arguments.removeSubrange(index...(index + 1)) }
        return arguments[index + 1]
    }
    guard let scenarioPath = value("--scenario"), let rootPath = value("--root") else {
        FileHandle.standardError.write(
            Data("usage: example-generator --scenario FILE --root DIR [--actors FILE]\n".utf8))
        return 64
    }
    let root = URL(fileURLWithPath: rootPath)
    do {
        // The inputs are regenerated whole: a batch that no longer exists must not linger.
        try? FileManager.default.removeItem(at: root.appendingPathComponent("inputs"))
        let scenario = try Scenario(text: String(contentsOfFile: scenarioPath, encoding: .utf8))
        let simulator = try Simulator(scenario: scenario, root: root)
        try simulator.run()
        let script = root.appendingPathComponent("replay.sh")
        try simulator.replayScript.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        if let actors = value("--actors") {
            try simulator.actorsTable.write(toFile: actors, atomically: true, encoding: .utf8)
        }
        return 0
    } catch {
        FileHandle.standardError.write(Data("example-generator: \(error)\n".utf8))
        return 65
    }
}

exit(main())
