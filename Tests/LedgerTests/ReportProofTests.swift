import Foundation
import Testing

@testable import LedgerFormat
@testable import LedgerReport

/// Every record on every page of the example's report carries a proof that `check-proof`'s check
/// (``ProofCheck``, not the page's script) accepts: its shown bytes, leaf index and inclusion proof, against
/// the page's checkpoint under the log key the page names — which is the ledger descriptor's `log`.
@Suite("Public report: every shown record's proof checks")
struct ReportProofTests {
    static func unescape(_ text: Substring) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    static func captures(_ pattern: String, in html: String) -> [[Substring]] {
        let expression = try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        return expression.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { match in
            (1..<match.numberOfRanges).map { html[Range(match.range(at: $0), in: html)!] }
        }
    }

    @Test func everyRecordOnEveryPageProvesWithCheckProof() throws {
        let scratch = ScratchDirectory()
        let site = PublicReportTests.exampleSite(scratch)
        let descriptor = runProcess(
            "git",
            ["-C", ExampleLedgerTests.example.appendingPathComponent("ledger.git").path, "show", "HEAD:ledger.json"])
        let logKeyText = try #require(try CanonicalJSON.parse(Array(descriptor.stdout.utf8))["log"]?.stringValue)
        let logKey = try #require(NoteKey(logKeyText))
        var proved = 0
        var pagesWithRecords = 0
        for page in PublicReportTests.files(under: site) where page.hasSuffix(".html") {
            let html = try String(contentsOfFile: site + "/" + page, encoding: .utf8)
            let records = html.components(separatedBy: "<section class=\"record").count - 1
            guard records > 0 else { continue }
            pagesWithRecords += 1
            let box = try #require(
                Self.captures(#"data-log-key="([^"]*)".*?<pre class="checkpoint-note">([^<]*)</pre>"#, in: html).first,
                "\(page) shows records but no checkpoint")
            #expect(Self.unescape(box[0]) == logKeyText, "\(page) names another log key")
            let checkpoint = Self.unescape(box[1])
            let proofs = Self.captures(
                #"<pre class="json record-bytes">([^<]*)</pre>\s*</details>\s*<details class="log-proof" data-leaf-index="([0-9]+)" data-path="([^"]*)">.*?<pre class="proof-hashes">([^<]*)</pre>"#,
                in: html)
            #expect(proofs.count == records, "\(page): \(records) records, \(proofs.count) proofs")
            for proof in proofs {
                let bytes = Array(Self.unescape(proof[0]).utf8)
                let path = Self.unescape(proof[2])
                let hashes = proof[3].split(separator: "\n").map { ContentAddress(bytes: Base64.decode(String($0))!) }
                let tlog = TlogProof(
                    extra: LedgerLog.entry(path: path, sha256: SHA256.hash(bytes)), index: Int(proof[1])!,
                    hashes: hashes, checkpoint: checkpoint)
                #expect(throws: Never.self, "\(page) \(path)") {
                    try ProofCheck.check(tlog, logKey: logKey, record: bytes)
                }
                proved += 1
            }
        }
        // Binding pages, authority pages drawn from records, and the records' own pages.
        #expect(pagesWithRecords > 73)
        #expect(proved > 1_000)
    }
}
