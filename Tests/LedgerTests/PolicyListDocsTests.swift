import Foundation
import Testing

@testable import LedgerVerifier

/// The policy list a reader of README.md and docs/VERIFY.md meets is the one `verify` runs, in its order:
/// a second implementation is written from those pages.
@Suite("Docs list the policies verify runs")
struct PolicyListDocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static var names: [String] { StandardLedgerPolicy.policies.map { type(of: $0).name } }

    @Test func readmeListsEveryPolicyInOrder() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "the policies in order: "))
        let end = try #require(
            readme.range(of: " (docs/VERIFY.md says what each checks)", range: start.upperBound..<readme.endIndex))
        let listed = readme[start.upperBound..<end.lowerBound].replacingOccurrences(of: "\n", with: " ")
            .components(separatedBy: ", ").map { $0.trimmingCharacters(in: .whitespaces) + "Policy" }
        #expect(listed == Self.names)
    }

    @Test func verifyDocHasARowForEveryPolicy() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/VERIFY.md"), encoding: .utf8)
        for name in Self.names + ["RepositoryPolicy"] {
            #expect(doc.contains("| \(name) |"), "docs/VERIFY.md has no row for \(name)")
        }
    }

    /// The LedgerVerifier DocC catalogue lists every public type of Policies/ and FrontEnds/ as a symbol
    /// link, and names every policy `verify` runs (RepositoryPolicy's type is internal: named in text).
    @Test func verifierCatalogueListsEveryPolicyAndFrontEnd() throws {
        let catalogue = Self.root.appendingPathComponent("Sources/LedgerVerifier/LedgerVerifier.docc")
        let pages = try FileManager.default.contentsOfDirectory(atPath: catalogue.path).filter { $0.hasSuffix(".md") }
            .map { try String(contentsOf: catalogue.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n")
        let declaration = try Regex(#"(?m)^public (?:final )?(?:struct|enum|class|protocol|actor) (\w+)"#)
        var types: [String] = []
        for folder in ["Policies", "FrontEnds"] {
            let url = Self.root.appendingPathComponent("Sources/LedgerVerifier/\(folder)")
            for file in try FileManager.default.contentsOfDirectory(atPath: url.path) where file.hasSuffix(".swift") {
                let source = try String(contentsOf: url.appendingPathComponent(file), encoding: .utf8)
                types += source.matches(of: declaration).compactMap { $0.output[1].substring.map(String.init) }
            }
        }
        #expect(types.count > Self.names.count)
        for type in types {
            #expect(pages.contains("``\(type)``"), "the LedgerVerifier catalogue does not list \(type)")
        }
        for name in Self.names + ["RepositoryPolicy"] {
            #expect(pages.contains("`\(name)`"), "the LedgerVerifier catalogue does not name \(name)")
        }
    }
}
