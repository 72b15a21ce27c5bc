import Foundation
import Testing

/// The repository speaks of the project, not of how it was made: someone who clones it has no issue
/// tracker, no work sessions, no style guide or design notes kept elsewhere, and no folder of another
/// machine. Its text cites the enforcement profile, the reference and docs/ instead.
@Suite("Repository text cites what a clone holds")
struct RepositoryTextTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Where the project's own text lives (of conformance/, its READMEs; its ledgers and the example's are data).
    static let projectText = [
        "Sources", "Tests", "docs", "README.md", "BENCHMARKS.md", "ledger-example", "schemas", "scripts", "Makefile",
        "benchmarks", "fuzz", "conformance",
    ]
    /// Where code and its docs live.
    static let codeText = ["Sources", "Tests", "docs", "README.md"]

    /// A tracker's or a work session's number. Spelled with a class so this file does not match itself.
    static var historyNumber: Regex<AnyRegexOutput> {
        try! Regex("[i]ssue ?[0-9]+|[s]ession ?[0-9]+").ignoresCase()
    }
    /// A guideline number, a design-note section, or a path outside the repository.
    static var outsideReference: Regex<AnyRegexOutput> {
        try! Regex(#"[g]uideline [0-9]|DESIGN[ ]§|\.\.[/]shared|/[w]ork/"#)
    }

    @Test func noTextMentionsAnIssueOrASessionNumber() throws {
        let hits = try Self.lines(matching: Self.historyNumber, under: Self.projectText)
        #expect(hits.isEmpty, "mentions of issue or session numbers:\n\(hits.joined(separator: "\n"))")
    }

    @Test func noCodeCitesAGuidelineADesignSectionOrAPathOutsideTheRepository() throws {
        let hits = try Self.lines(matching: Self.outsideReference, under: Self.codeText)
        #expect(hits.isEmpty, "references a clone cannot follow:\n\(hits.joined(separator: "\n"))")
    }

    /// `path:line: text` for every line of a UTF-8 text file under `roots` that matches `pattern`; the
    /// example's git repository and the conformance ledgers (checked-in binary data) are skipped.
    static func lines(matching pattern: Regex<AnyRegexOutput>, under roots: [String]) throws -> [String] {
        var hits: [String] = []
        for path in try roots.flatMap(files(under:)) where isText(path) {
            let data = try Data(contentsOf: root.appendingPathComponent(path))
            guard let text = String(data: data, encoding: .utf8) else { continue }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(pattern) {
                hits.append("\(path):\(number + 1): \(line.prefix(160))")
            }
        }
        return hits
    }

    /// Whether `path` is the project's text rather than checked-in ledger data.
    static func isText(_ path: String) -> Bool {
        if path.hasPrefix("ledger-example/ledger.git/") { return false }
        if path.hasPrefix("conformance/") { return URL(fileURLWithPath: path).lastPathComponent.hasPrefix("README") }
        return true
    }

    /// The regular files under `relativePath` (itself, when it is a file), relative to the package root.
    static func files(under relativePath: String) throws -> [String] {
        let url = root.appendingPathComponent(relativePath)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else { return [relativePath] }
        let names = try FileManager.default.subpathsOfDirectory(atPath: url.path)
        return names.sorted().compactMap { name in
            var nameIsFolder: ObjCBool = false
            let full = url.appendingPathComponent(name).path
            FileManager.default.fileExists(atPath: full, isDirectory: &nameIsFolder)
            return nameIsFolder.boolValue ? nil : relativePath + "/" + name
        }
    }
}
