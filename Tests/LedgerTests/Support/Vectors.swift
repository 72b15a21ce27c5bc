import Foundation

/// Loads the data-file vectors under `Tests/LedgerTests/Vectors` (copied as resources).
enum Vectors {
    static var root: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Vectors")
    }

    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    static func bytes(_ relative: String) -> [UInt8] {
        [UInt8](try! Data(contentsOf: url(relative)))
    }

    static func text(_ relative: String) -> String {
        String(decoding: bytes(relative), as: UTF8.self)
    }

    static func json(_ relative: String) -> Any {
        try! JSONSerialization.jsonObject(with: Data(bytes(relative)))
    }

    /// One canonical-JSON case: `NAME.input` plus `NAME.expected` or `NAME.error`.
    struct CanonicalCase: CustomTestStringConvertible, Sendable {
        let name: String
        let input: [UInt8]
        let expected: [UInt8]?
        let errorCode: String?
        var testDescription: String { name }
    }

    static func canonicalCases() -> [CanonicalCase] {
        let folder = url("canonical-json")
        let names = try! FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".input") }
            .map { String($0.dropLast(".input".count)) }
            .sorted()
        return names.map { name in
            let expectedURL = folder.appendingPathComponent(name + ".expected")
            let errorURL = folder.appendingPathComponent(name + ".error")
            return CanonicalCase(
                name: name,
                input: [UInt8](try! Data(contentsOf: folder.appendingPathComponent(name + ".input"))),
                expected: (try? Data(contentsOf: expectedURL)).map { [UInt8]($0) },
                errorCode: (try? String(contentsOf: errorURL, encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}

import Testing
