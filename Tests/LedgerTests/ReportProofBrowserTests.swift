import Foundation
import LedgerFormat
import Testing

@testable import LedgerReport

/// Every report page that shows records checks them itself, in the reader's browser (Debian's headless
/// Chromium from `file://`, no network): a clean page says "verified" and marks each record; a copy of the
/// report with one byte of a record changed, one proof hash changed or the checkpoint's signature changed says
/// "failed". With `report --witness` the page also checks the witnesses' cosignatures.
@Suite("Public report: each page checks its records in the browser", .serialized)
struct ReportProofBrowserTests {
    /// The page's overall result, `#proof-status`'s `data-status`.
    static func status(_ dom: String) -> String? {
        let pattern = try! NSRegularExpression(
            pattern: #"<p id="proof-status"[^>]*data-status="([a-z]+)"[^>]*>([^<]*)"#)
        guard let match = pattern.firstMatch(in: dom, range: NSRange(dom.startIndex..., in: dom)) else { return nil }
        return String(dom[Range(match.range(at: 1), in: dom)!])
    }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// Opens `page` of `site` and expects every record on it verified.
    static func expectVerified(_ site: String, _ page: String) throws -> String {
        let dom = try ReportBrowserTests.dom(URL(fileURLWithPath: site + "/" + page).absoluteString)
        #expect(status(dom) == "verified", "\(page): \(statusLine(dom))")
        #expect(!statusLine(dom).contains("(s)"), "\(page): plain grammar, not \(statusLine(dom))")
        let records = count("<section class=\"record", in: dom)
        #expect(records > 0, "\(page) shows no record")
        #expect(count("data-verified=\"true\"", in: dom) == records, "\(page): not every record is marked verified")
        #expect(!dom.contains("data-verified=\"false\""))
        return dom
    }

    static func statusLine(_ dom: String) -> String {
        guard let start = dom.range(of: "<p id=\"proof-status\"") else { return "no #proof-status" }
        return String(dom[start.lowerBound...].prefix(400))
    }

    /// A copy of `site` with `page` changed by `tamper`, opened in the browser.
    static func tampered(
        _ site: String, _ page: String, as name: String, _ tamper: (inout [Character]) throws -> Void
    ) throws -> String {
        let copy = site + "-" + name
        #expect(runProcess("cp", ["-a", site, copy]).status == 0)
        let path = copy + "/" + page
        let html = try String(contentsOfFile: path, encoding: .utf8)
        var characters = Array(html)
        try tamper(&characters)
        #expect(String(characters) != html, "the \(name) tamper changed nothing")
        try String(characters).write(toFile: path, atomically: true, encoding: .utf8)
        return try ReportBrowserTests.dom(URL(fileURLWithPath: path).absoluteString)
    }

    /// The position of the first character after `marker`, then `skip` characters on.
    static func offset(of marker: String, in characters: [Character], skip: Int = 0) throws -> Int {
        let needle = Array(marker)
        let start = try #require(
            characters.indices.first { characters[$0...].starts(with: needle) }, "no \(marker) on the page")
        return start + needle.count + skip
    }

    /// One base64 or hex character changed to another of the same alphabet.
    static func flip(_ character: Character) -> Character { character == "A" ? "B" : "A" }

    @Test func examplePagesVerifyAndTamperedCopiesFail() throws {
        let scratch = ScratchDirectory()
        let site = PublicReportTests.exampleSite(scratch)
        let bruno = SiteLinks.binding(try #require(PublicReportTests.actorBinding("bruno")))
        let brunoDOM = try Self.expectVerified(site, bruno)
        #expect(brunoDOM.contains("these exact bytes are leaf"))
        #expect(brunoDOM.contains("onym-chat-enforcement+26e9692e+"), "the page names the log key it checked against")
        // An authority's page checks the manifest, revocation and compromise report it is drawn from.
        _ = try Self.expectVerified(site, SiteLinks.authority("onym:component:civic-panel"))
        let recordPage = try #require(PublicReportTests.files(under: site).first { $0.hasPrefix("records/") })
        _ = try Self.expectVerified(site, recordPage)

        // One byte of one record's stored bytes: that record fails, the page fails.
        let byte = try Self.tampered(site, bruno, as: "byte") { characters in
            var at = try Self.offset(of: "record-bytes\">", in: characters)
            while !characters[at].isNumber { at += 1 }
            characters[at] = characters[at] == "0" ? "1" : "0"
        }
        #expect(Self.status(byte) == "failed", "\(Self.statusLine(byte))")
        #expect(Self.count("data-verified=\"false\"", in: byte) == 1)
        #expect(byte.contains("NOT verified in your browser"))
        // One hash of one inclusion proof.
        let hash = try Self.tampered(site, bruno, as: "hash") { characters in
            let at = try Self.offset(of: "proof-hashes\">", in: characters, skip: 10)
            characters[at] = Self.flip(characters[at])
        }
        #expect(Self.status(hash) == "failed", "\(Self.statusLine(hash))")
        #expect(Self.count("data-verified=\"false\"", in: hash) == 1)
        // The checkpoint's signature (past its 4-byte key ID): nothing on the page verifies.
        let signature = try Self.tampered(site, bruno, as: "signature") { characters in
            let note = try Self.offset(of: "checkpoint-note\">", in: characters)
            let line = try Self.offset(of: "\u{2014} onym-chat-enforcement ", in: Array(characters[note...]))
            characters[note + line + 30] = Self.flip(characters[note + line + 30])
        }
        #expect(Self.status(signature) == "failed", "\(Self.statusLine(signature))")
        #expect(signature.contains("signature does not verify under the log key"))
        #expect(!signature.contains("data-verified=\"true\""))
    }

    @Test func withWitnessesThePageChecksTheirCosignatures() throws {
        let scenario = WitnessTests.ledger()
        let trust = WitnessTests.trust(scenario)
        var auditor = WitnessTests.witness("auditor.example", seed: "21", scenario)
        let cosigned = auditor.cosign(scenario.ledger, trust: trust, scenario: scenario)
        #expect(cosigned.status == 0, "\(cosigned.stderr)")
        #expect(
            CLI.run([
                "append", scenario.ledger, "--signing-key", scenario.signer, "--at", WitnessTests.storedAt,
                cosigned.note,
            ]).status == 0)
        let state = scenario.scratch.path("report-state")
        let site = scenario.scratch.path("site")
        let made = CLI.run([
            "report", scenario.ledger, "--trust", trust, "--state", state, "--out", site, "--witness", auditor.vkey,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let page = try #require(PublicReportTests.files(under: site).first { $0.hasPrefix("bindings/b-") })
        let dom = try Self.expectVerified(site, page)
        #expect(dom.contains("cosigned by auditor.example"), "\(Self.statusLine(dom))")
        // The witness's cosignature line changed: the quorum is not met, the page fails.
        let forged = try Self.tampered(site, page, as: "cosignature") { characters in
            let note = try Self.offset(of: "checkpoint-note\">", in: characters)
            let line = try Self.offset(of: "\u{2014} auditor.example ", in: Array(characters[note...]))
            characters[note + line + 40] = Self.flip(characters[note + line + 40])
        }
        #expect(Self.status(forged) == "failed", "\(Self.statusLine(forged))")
        #expect(forged.contains("0 of the 1 witness cosignatures needed verify"))
        // A witness that did not cosign: no report (as verify says, "not witnessed"), nothing written.
        var stranger = WitnessTests.witness("stranger.example", seed: "23", scenario)
        _ = stranger.cosign(scenario.ledger, trust: trust, scenario: scenario)
        let elsewhere = scenario.scratch.path("site-stranger")
        let refused = CLI.run([
            "report", scenario.ledger, "--trust", trust, "--state", state, "--out", elsewhere, "--witness",
            stranger.vkey,
        ])
        #expect(refused.status == 3, "\(refused.stdout) \(refused.stderr)")
        #expect(refused.stderr.contains("stranger.example"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: elsewhere))
        let maxAge = CLI.run([
            "report", scenario.ledger, "--trust", trust, "--out", elsewhere, "--witness", auditor.vkey, "--max-age",
            "P1D",
        ])
        #expect(maxAge.status == 64)
    }
}
