import Foundation
import LedgerFormat
import Testing

@testable import LedgerReport

/// The example's report opened in a real browser (Debian's headless Chromium, installed by
/// `make test`) from `file://`, with no network: the DOM after scripts ran, links followed across pages,
/// the search run, screenshots saved as test artifacts, and no console message (a script error or a
/// blocked resource would print one).
@Suite("Public report in headless Chromium", .serialized)
struct ReportBrowserTests {
    static let artifacts = ExampleLedgerTests.root.appendingPathComponent(".build/test-artifacts/report")

    static var chromium: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Loads `url` and returns the DOM after its scripts ran, failing the test on any console message.
    static func dom(_ url: String) throws -> String {
        let browser = try #require(chromium, "chromium is not installed: 'make test' installs it")
        let result = runProcess(
            "timeout",
            [
                "120", browser, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
                "--virtual-time-budget=5000", "--dump-dom", url,
            ])
        #expect(result.status == 0, "chromium failed on \(url): \(result.stderr.suffix(2_000))")
        let console = result.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        #expect(console.isEmpty, "console messages on \(url): \(console)")
        return result.stdout
    }

    static func screenshot(_ url: String, name: String, width: Int = 1280, height: Int = 2000) throws {
        let browser = try #require(chromium, "chromium is not installed: 'make test' installs it")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let path = artifacts.appendingPathComponent(name).path
        try? FileManager.default.removeItem(atPath: path)
        let result = runProcess(
            "timeout",
            [
                "120", browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--window-size=\(width),\(height)", "--screenshot=\(path)", url,
            ])
        #expect(result.status == 0, "\(result.stderr.suffix(2_000))")
        let png = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(png.count > 10_000 && png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name) is not a screenshot")
    }

    /// The `href` of the first link whose text contains `text`, in a DOM Chromium serialized.
    static func link(in dom: String, containing text: String) -> String? {
        let pattern = try! NSRegularExpression(
            pattern: #"<a href="([^"]*)"[^>]*>(.*?)</a>"#, options: [.dotMatchesLineSeparators])
        let range = NSRange(dom.startIndex..., in: dom)
        for match in pattern.matches(in: dom, range: range) {
            let label = String(dom[Range(match.range(at: 2), in: dom)!])
            if label.contains(text) { return String(dom[Range(match.range(at: 1), in: dom)!]) }
        }
        return nil
    }

    static func resolve(_ href: String, from page: URL) -> URL {
        URL(string: href, relativeTo: page)!.absoluteURL
    }

    @Test func theOverviewLeadsToTheAuthoritiesAndTheirStatus() throws {
        let scratch = ScratchDirectory()
        let site = PublicReportTests.exampleSite(scratch)
        let overview = URL(fileURLWithPath: site + "/index.html")
        let dom = try Self.dom(overview.absoluteString)
        #expect(dom.contains("Verified: authentic, every write authorized"))
        #expect(dom.contains("onym:component:onym-chat"))
        #expect(dom.contains("<svg"), "the timeline is inline SVG")
        #expect(dom.contains("ONYMTEAM01"))
        try Self.screenshot(overview.absoluteString, name: "overview.png")
        // Follow the link to the civic panel: the authority that reported a compromise and was revoked.
        let civicLink = try #require(Self.link(in: dom, containing: "onym:component:civic-panel"))
        let civic = Self.resolve(civicLink, from: overview)
        let civicDOM = try Self.dom(civic.absoluteString)
        #expect(civicDOM.contains("Authority onym:component:civic-panel"))
        #expect(civicDOM.contains("revoked"))
        #expect(civicDOM.contains("Reported a key compromise"))
        let safetyLink = try #require(Self.link(in: dom, containing: "onym:component:safety-board"))
        let safety = Self.resolve(safetyLink, from: overview)
        let safetyDOM = try Self.dom(safety.absoluteString)
        #expect(safetyDOM.contains("Verdicts by class and disposition"))
        #expect(safetyDOM.contains("Time from open case to decision"))
        #expect(safetyDOM.contains("in force"))
        try Self.screenshot(safety.absoluteString, name: "authority-safety-board.png")
    }

    /// Every page of the example's report fits a phone (390 px, an iPhone's width) and a desktop: the page never
    /// scrolls sideways (a wide table reflows, or scrolls inside its own box), and no short word — a class id,
    /// a column heading, a 12-character commit id — is broken across lines. Measured in Chromium by
    /// `Tests/Interop/layoutcheck.py` (Selenium and chromium-driver), which does not share the stylesheet's
    /// assumptions: it reads the laid-out boxes.
    @Test(arguments: [390, 1280])
    func everyPageFitsTheScreen(width: Int) throws {
        let scratch = ScratchDirectory()
        let site = PublicReportTests.exampleSite(scratch)
        let pages = PublicReportTests.files(under: site).filter { $0.hasSuffix(".html") }.map { site + "/" + $0 }
        #expect(pages.count > 50)
        let checker = ExampleLedgerTests.root.appendingPathComponent("Tests/Interop/layoutcheck.py").path
        let result = runProcess("timeout", ["600", "python3", checker, "--width", "\(width)"] + pages)
        #expect(result.status == 0, "layoutcheck could not run: \(result.stderr.suffix(2_000))")
        #expect(
            result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "{}",
            "pages that do not fit \(width) px:\n\(result.stdout.prefix(4_000))")
        if width == 390 {
            let authority = try #require(pages.first { $0.contains("/authorities/") })
            try Self.screenshot("file://" + authority, name: "authority-phone.png", width: 390, height: 2400)
        }
    }

    @Test func brunosPageIsReachedByBrowsingAndBySearch() throws {
        let scratch = ScratchDirectory()
        let site = PublicReportTests.exampleSite(scratch)
        let bruno = try #require(PublicReportTests.actorBinding("bruno")).text
        let brunoKey = ExampleLedgerTests.actor("bruno")
        // Browsing, without JavaScript's help: overview → binding index → the page that lists bruno → his page.
        let overview = URL(fileURLWithPath: site + "/index.html")
        let index = Self.resolve(
            try #require(Self.link(in: try Self.dom(overview.absoluteString), containing: "device bindings")),
            from: overview)
        let indexDOM = try Self.dom(index.absoluteString)
        var found: URL?
        var page = 1
        while found == nil, let pageLink = Self.link(in: indexDOM, containing: "Page \(page)") {
            let pageURL = Self.resolve(pageLink, from: index)
            if let href = Self.link(in: try Self.dom(pageURL.absoluteString), containing: bruno) {
                found = Self.resolve(href, from: pageURL)
            }
            page += 1
        }
        let brunoPage = try #require(found, "no index page lists \(bruno)")
        let story = try Self.dom(brunoPage.absoluteString)
        #expect(story.contains("Device binding \(bruno)"))
        #expect(story.contains(brunoKey))
        #expect(story.contains("Consent."))
        #expect(story.contains("banned the device in case"))
        try Self.screenshot(brunoPage.absoluteString, name: "binding-bruno.png", height: 3000)
        try Self.screenshot(brunoPage.absoluteString, name: "binding-bruno-phone.png", width: 390, height: 2400)

        // Search by his identity: the script loads one shard and links to the same page.
        let search = URL(fileURLWithPath: site + "/search.html")
        var components = URLComponents(url: search, resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "q", value: brunoKey)]
        let results = try Self.dom(components.url!.absoluteString)
        let hit = try #require(Self.link(in: results, containing: bruno), "search found nothing for \(brunoKey)")
        #expect(Self.resolve(hit, from: search).standardized.path == brunoPage.standardized.path)
        // By a prefix in upper case, with and without the kind: the same page, in plain grammar.
        for query in [String(brunoKey.uppercased().prefix(20)), String(bruno.dropFirst("enrollment:".count).prefix(8))]
        {
            components.queryItems = [URLQueryItem(name: "q", value: query)]
            let dom = try Self.dom(components.url!.absoluteString)
            let prefixHit = try #require(Self.link(in: dom, containing: bruno), "search found nothing for \(query)")
            #expect(Self.resolve(prefixHit, from: search).standardized.path == brunoPage.standardized.path)
            #expect(dom.contains("1 result:") && !dom.contains("result(s)"), "\(query)")
        }
        // Too short to choose a shard: asks for more, rather than answering "nothing".
        components.queryItems = [URLQueryItem(name: "q", value: "onym:key:B")]
        #expect(try Self.dom(components.url!.absoluteString).contains("Type at least two characters"))
        // And by a binding nothing names: an honest "nothing".
        components.queryItems = [URLQueryItem(name: "q", value: "enrollment:no-such-device")]
        #expect(
            try Self.dom(components.url!.absoluteString).contains(
                "No device binding or identity in this ledger starts with enrollment:no-such-device."))
    }
}
