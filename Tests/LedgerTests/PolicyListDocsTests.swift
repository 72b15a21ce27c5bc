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
}
