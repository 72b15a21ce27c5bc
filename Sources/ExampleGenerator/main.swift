import Foundation

/// `example-generator --scenario FILE --cli PATH --out LEDGER`: plays ledger-example/scenario.txt
/// through the onym-ledger CLI into a fresh ledger (see ledger-example/README.md).
func main() -> Int32 {
    var arguments = Array(CommandLine.arguments.dropFirst())
    func value(_ name: String) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        defer { arguments.removeSubrange(index...(index + 1)) }
        return arguments[index + 1]
    }
    guard let scenarioPath = value("--scenario"), let cli = value("--cli"), let out = value("--out") else {
        FileHandle.standardError.write(
            Data("usage: example-generator --scenario FILE --cli PATH --out LEDGER [--actors FILE]\n".utf8))
        return 64
    }
    guard !FileManager.default.fileExists(atPath: out) else {
        FileHandle.standardError.write(Data("example-generator: \(out) exists; remove it first\n".utf8))
        return 64
    }
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("onym-ledger-example-\(getpid())")
    do {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let scenario = try Scenario(text: String(contentsOfFile: scenarioPath, encoding: .utf8))
        let simulator = try Simulator(scenario: scenario, cli: cli, ledger: out, work: work)
        try simulator.run()
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
