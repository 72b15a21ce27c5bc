import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
@testable import LedgerReport

/// `report` writes a static site from verified history only — every link resolves inside the site,
/// nothing loads from the network, ledger text is escaped, a ledger that does not verify gets nothing.
@Suite("Public report: the static site", .serialized)
struct PublicReportTests {
    static let conformance = ExampleLedgerTests.root.appendingPathComponent("conformance")

    /// Generates the example's report into `scratch` and returns the site's folder.
    static func exampleSite(_ scratch: borrowing ScratchDirectory) -> String {
        let ledger = ExampleLedgerTests.copy(scratch)
        let site = scratch.path("site")
        let result = CLI.run([
            "report", ledger, "--trust", ExampleLedgerTests.trust, "--out", site, "--json", "--state",
            scratch.path("state"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        return site
    }

    static func files(under folder: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder)!
        return enumerator.compactMap { $0 as? String }.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder + "/" + $0, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }.sorted()
    }

    /// Every `href`/`src` value in an HTML text (a second, regex-based reading, not the generator's links).
    static func references(in html: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"(?:href|src)="([^"]*)""#)
        let range = NSRange(html.startIndex..., in: html)
        return pattern.matches(in: html, range: range).map { String(html[Range($0.range(at: 1), in: html)!]) }
    }

    static func ids(in html: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: #"\sid="([^"]*)""#)
        let range = NSRange(html.startIndex..., in: html)
        return Set(pattern.matches(in: html, range: range).map { String(html[Range($0.range(at: 1), in: html)!]) })
    }

    @Test func everyLinkOfTheExampleReportResolvesInsideTheSite() throws {
        let scratch = ScratchDirectory()
        let site = Self.exampleSite(scratch)
        let files = Self.files(under: site)
        let pages = files.filter { $0.hasSuffix(".html") }
        #expect(pages.contains("index.html") && pages.contains("search.html") && pages.contains("bindings/index.html"))
        #expect(files.filter { $0.hasPrefix("search/") }.count == 256)
        var checked = 0
        var idsByPage: [String: Set<String>] = [:]
        for page in pages {
            let html = try String(contentsOfFile: site + "/" + page, encoding: .utf8)
            idsByPage[page] = Self.ids(in: html)
        }
        for page in pages {
            let html = try String(contentsOfFile: site + "/" + page, encoding: .utf8)
            // Every page says it comes from verified history and gives the way to check it.
            #expect(html.contains("verify.html"), "\(page)")
            let base = URL(fileURLWithPath: site + "/" + page).deletingLastPathComponent()
            for reference in Self.references(in: html) {
                // No network at view time: nothing is loaded or linked by an absolute URL (ledger text that
                // holds a URL, an appeal link, is shown as text).
                #expect(!reference.contains(":"), "\(page) references \(reference)")
                let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let target =
                    parts[0].isEmpty
                    ? page
                    : base.appendingPathComponent(String(parts[0])).standardized.path
                        .replacingOccurrences(of: site + "/", with: "")
                #expect(files.contains(target), "\(page) links to \(reference), which is not in the site")
                if parts.count == 2 {
                    #expect(
                        idsByPage[target]?.contains(String(parts[1])) == true,
                        "\(page) links to \(reference): no such anchor")
                }
                checked += 1
            }
        }
        #expect(checked > 1_000)
        // Every authority of the ledger and every actor's binding has its page.
        let actors = try String(
            contentsOf: ExampleLedgerTests.example.appendingPathComponent("actors.tsv"), encoding: .utf8)
        for line in actors.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t").map { WireString(String($0)) }
            let path =
                fields[2].hasBytePrefix("onym:component:")
                ? SiteLinks.authority(fields[2]) : SiteLinks.binding(fields[2])
            #expect(files.contains(path), "\(fields[0]) has no page")
        }
    }

    @Test func theStoryOfBrunoIsTheLedgersStory() throws {
        let scratch = ScratchDirectory()
        let site = Self.exampleSite(scratch)
        let bruno = try #require(Self.actorBinding("bruno"))
        let html = try String(contentsOfFile: site + "/" + SiteLinks.binding(bruno), encoding: .utf8)
        // Against the ledger itself: every write entry git lists for this binding appears, with its sequence.
        let ledger = ExampleLedgerTests.example.appendingPathComponent("ledger.git").path
        let listed = runProcess("git", ["--git-dir", ledger, "grep", "-l", bruno.text, "main", "--", "log/"]).stdout
            .split(separator: "\n")
        #expect(!listed.isEmpty)
        for line in listed {
            let sequence = Int(line.split(separator: "/").last!.dropLast(5))!
            #expect(html.contains("id=\"w-\(sequence)\""), "write \(sequence) of bruno is not in his story")
        }
        #expect(html.contains("<strong>Consent.</strong>"))
        #expect(html.contains("From the ledger's history at tip"))
        #expect(html.contains("banned the device in case"))
        #expect(html.contains("Canonical JSON"))
    }

    /// A ban the rules never executed is never told as if it ran: Lena's late ban (decided after her case's
    /// deadline) says it never took effect, not "the ban runs until"; one that ran says when it took effect.
    @Test func aBanThatNeverTookEffectIsNotToldAsIfItRan() throws {
        let scratch = ScratchDirectory()
        let site = Self.exampleSite(scratch)
        let lena = try #require(Self.actorBinding("lena"))
        let html = try String(contentsOfFile: site + "/" + SiteLinks.binding(lena), encoding: .utf8)
        #expect(html.contains("This ban never took effect"))
        #expect(!html.contains("runs until"))
        #expect(html.contains("The authority's reasoning:"))
        let bruno = try #require(Self.actorBinding("bruno"))
        let ran = try String(contentsOfFile: site + "/" + SiteLinks.binding(bruno), encoding: .utf8)
        #expect(ran.contains("The ban took effect"))
        #expect(!ran.contains("never took effect"))
    }

    /// The report's binding pages tell the example's grants (profile §10; onym-wire §3.12): Nadia's recovery
    /// moves her ban to her new phone's binding, where it goes on — her old binding's page tells the move, not an
    /// end of the ban — and her identity is on the new binding; Omar's unban grant ends his permanent ban.
    @Test func theRecoveryAndTheUnbanAreTold() throws {
        let scratch = ScratchDirectory()
        let site = Self.exampleSite(scratch)
        let old = try #require(Self.actorBinding("nadia"))
        let new = try #require(Self.actorBinding("nadia@nadia-phone-2"))
        let oldPage = try String(contentsOfFile: site + "/" + SiteLinks.binding(old), encoding: .utf8)
        let newPage = try String(contentsOfFile: site + "/" + SiteLinks.binding(new), encoding: .utf8)
        let relinked =
            "re-linked case <code class=\"word\">n-1</code> from <code>\(old)</code> to <code>\(new)</code> after a reinstall"
        #expect(oldPage.contains(relinked) && newPage.contains(relinked))
        #expect(oldPage.contains("banned the device in case"))
        #expect(oldPage.contains("it runs until <time datetime=\"2027-08-26T08:00:00Z\">"), "the moved ban goes on")
        #expect(!oldPage.contains("(by the rules (reconciliation))"), "a recovery is not the end of the ban")
        let nadia = try #require(Self.actorKey("nadia"))
        #expect(newPage.contains("Identities (onym:key)</dt><dd><code>\(nadia)</code>"), "the moved mandate's identity")
        #expect(newPage.contains("Write ") && newPage.contains("bits set to banned"))
        #expect(!oldPage.contains("Conduct finding") && !newPage.contains("Conduct finding"))

        let omar = try #require(Self.actorBinding("omar"))
        let omarsPage = try String(contentsOfFile: site + "/" + SiteLinks.binding(omar), encoding: .utf8)
        #expect(omarsPage.contains("ended the ban of case <code class=\"word\">o-1</code>"))
        #expect(omarsPage.contains("and ended <time datetime=\"2026-09-21T10:00:00Z\">"))
        #expect(omarsPage.contains("unban grant, redeemed (recovery-unban:"))
        #expect(omarsPage.contains("bits set to clear"))
    }

    /// A record page says what the record says — a manifest's classes and their terms, names, contacts and
    /// recourse addresses; a profile's marks and bits; a revocation's trigger and times — beside its hashes.
    /// Checked against the stored bytes read back by stock git and parsed by Foundation's JSON reader, not
    /// by the report's own reading.
    @Test func recordPagesShowWhatTheRecordSays() throws {
        let scratch = ScratchDirectory()
        let site = Self.exampleSite(scratch)
        let ledger = ExampleLedgerTests.example.appendingPathComponent("ledger.git").path
        let pages = Self.files(under: site + "/records")
        #expect(pages.contains { $0.hasPrefix("manifest-") } && pages.contains { $0.hasPrefix("profile-") })
        func stored(_ html: String) throws -> [String: Any] {
            let path = try #require(html.firstMatch(of: /Stored at<\/dt><dd><code[^>]*>([^<]+)<\/code>/)?.1)
            let bytes = runProcess("git", ["-C", ledger, "show", "HEAD:" + path]).stdout
            return try #require(try JSONSerialization.jsonObject(with: Data(bytes.utf8)) as? [String: Any])
        }
        func readable(_ time: String) -> String { time.replacing("T", with: " ") }
        for page in pages {
            let html = try String(contentsOfFile: site + "/records/" + page, encoding: .utf8)
            let json = try stored(html)
            if page.hasPrefix("manifest-") {
                for field in ["componentId", "operator", "seat", "moderationProfileId", "appellate"] {
                    let value = try #require(json[field] as? String, "\(page): \(field)")
                    #expect(html.contains(">\(value)<"), "\(page) does not show its \(field) \(value)")
                }
                #expect(html.contains(readable(try #require(json["validUntil"] as? String))))
                let appeal = try #require(json["newHolderAppeal"] as? String)
                #expect(html.contains(">\(appeal)<"), "\(page): the new holder's appeal is not shown")
                let classes = try #require(json["violationClasses"] as? [[String: Any]])
                for item in classes {
                    let id = try #require(item["classId"] as? String)
                    let row = try #require(
                        html.split(separator: "<tr>").dropFirst().first { $0.contains(">\(id)<") },
                        "\(page): no row for \(id)")
                    let definition = try #require(item["definition"] as? String)
                    #expect(html.contains(">\(definition)<"), "\(page): \(id)'s definition is not shown")
                    for term in ["responseWindow", "decisionDeadline", "appealWindow", "banTerm"] {
                        let text = try #require(item[term] as? String)
                        let shown = text == "permanent" ? text : text.dropFirst().dropLast() + " days"
                        #expect(row.contains(">\(shown)<"), "\(page): \(id) \(term) \(text) is not shown")
                    }
                    #expect(row.contains(">\(try #require(item["appealEffect"] as? String))<"))
                }
            } else if page.hasPrefix("profile-") {
                for field in ["profileId", "platform", "caseNoticeSchema"] {
                    let value = try #require(json[field] as? String)
                    #expect(html.contains(">\(value)<"), "\(page) does not show its \(field)")
                }
                let marks = try #require(json["markBindings"] as? [String: String])
                for (mark, bit) in marks {
                    #expect(
                        html.contains(">\(mark)</code> → <code class=\"word\">\(bit)<"), "\(page): \(mark) → \(bit)")
                }
            } else if page.hasPrefix("revocation-") {
                #expect(html.contains(readable(try #require(json["effectiveAt"] as? String))))
                #expect(html.contains(readable(try #require(json["determinedAt"] as? String))))
                #expect(html.contains(">\(try #require(json["trigger"] as? String))<"))
            } else if page.hasPrefix("compromise-report-") {
                #expect(html.contains(readable(try #require(json["compromisedAt"] as? String))))
                #expect(html.contains(">\(try #require(json["authority"] as? String))<"))
            }
        }
    }

    static func actorBinding(_ name: String) -> WireString? { actorField(name, 2).map { WireString($0) } }

    static func actorKey(_ name: String) -> String? { actorField(name, 1) }

    /// Field `index` of the actor's row in `actors.tsv` (name, key, binding, device).
    static func actorField(_ name: String, _ index: Int) -> String? {
        let table = try? String(
            contentsOf: ExampleLedgerTests.example.appendingPathComponent("actors.tsv"), encoding: .utf8)
        return table?.split(separator: "\n").first { $0.hasPrefix(name + "\t") }.map {
            String($0.split(separator: "\t")[index])
        }
    }

    /// Runs `report` on a copy of a conformance-suite ledger; the site goes to `scratch/site`.
    static func reportOfConformanceCase(_ name: String, _ scratch: borrowing ScratchDirectory) -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let copy = scratch.path(name + ".git")
        #expect(
            runProcess("cp", ["-a", conformance.appendingPathComponent("ledgers/\(name).git").path, copy]).status == 0)
        return CLI.run([
            "report", copy, "--trust", conformance.appendingPathComponent("trust.pub").path, "--out",
            scratch.path("site"),
        ])
    }

    @Test func aLedgerThatIsNotAuthenticGetsNoReport() throws {
        let scratch = ScratchDirectory()
        let result = Self.reportOfConformanceCase("CommitSignaturePolicy", scratch)
        let site = scratch.path("site")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("not authentic"))
        #expect(!FileManager.default.fileExists(atPath: site))
        #expect(Self.files(under: scratch.path("")).allSatisfy { !$0.contains(".partial-") })
    }

    @Test func conductFindingsComeFirst() throws {
        let scratch = ScratchDirectory()
        let result = Self.reportOfConformanceCase("WriteReplayPolicy-conduct", scratch)
        let site = scratch.path("site")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("conduct finding"))
        let html = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        let finding = try #require(html.range(of: "WriteReplayPolicy"))
        let vendor = try #require(html.range(of: "The vendor and what it may write"))
        #expect(finding.lowerBound < vendor.lowerBound)
        #expect(html.contains(/Authentic, with (1 conduct finding|\d+ conduct findings)</), "plain grammar")
        #expect(!html.contains("(s)"), "the page says 'finding(s)' where it knows the count")
        // The finding links to the write it names, and that page flags it.
        let link = try #require(Self.references(in: html).first { $0.contains("#w-") })
        let page = try String(contentsOfFile: site + "/" + link.split(separator: "#")[0], encoding: .utf8)
        #expect(page.contains("Conduct finding:"))
    }

    @Test func aFolderOfOtherFilesIsNeverReplaced() throws {
        let scratch = ScratchDirectory()
        let ledger = ExampleLedgerTests.copy(scratch)
        let folder = scratch.path("mine")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        let result = CLI.run(["report", ledger, "--trust", ExampleLedgerTests.trust, "--out", folder])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("not an onym-ledger report"))
        #expect(try String(contentsOfFile: folder + "/notes.txt", encoding: .utf8) == "keep me")
        // A report replaces a report: the second run swaps the whole site.
        let site = scratch.path("site")
        #expect(CLI.run(["report", ledger, "--trust", ExampleLedgerTests.trust, "--out", site]).status == 0)
        try Data("stale".utf8).write(to: URL(fileURLWithPath: site + "/stale.html"))
        #expect(CLI.run(["report", ledger, "--trust", ExampleLedgerTests.trust, "--out", site]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: site + "/stale.html"))
        #expect(FileManager.default.fileExists(atPath: site + "/index.html"))
    }

    /// Ledger text is written by parties the report does not trust: it is escaped as text everywhere.
    @Test(arguments: [
        ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
        ("\"><img src=x onerror=alert(1)>", "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"),
        ("a & b 'c'", "a &amp; b &#39;c&#39;"),
        ("enrollment:ok", "enrollment:ok"),
    ])
    func ledgerTextIsEscaped(input: String, expected: String) {
        #expect(HTML.escape(input) == expected)
    }

    @Test func theSearchShardIsFNV1a() {
        // FNV-1a 32-bit known answers (the published test vectors): "" → 0x811c9dc5, "a" → 0xe40c292c,
        // "foobar" → 0xbf9cf968; the shard is the low byte.
        #expect(SiteLinks.searchShard("") == "c5")
        #expect(SiteLinks.searchShard("a") == "2c")
        #expect(SiteLinks.searchShard("foobar") == "68")
    }
}

/// One reading of "reversal" for the stories, the authority pages and the DSA export: a dismissal undoes
/// the bans of its case (authority and case id) that no earlier dismissal undid.
@Suite("Reversals")
struct ReversalTests {
    static let authority = FixtureAuthority()
    static let mandate = try! Mandate(
        json: FixtureRecords.mandate(
            user: Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x05))!, interface: FixtureInterface(),
            authority: authority, classes: ["csam"], deviceBinding: "enrollment:d", acceptedAt: "2026-08-01T00:00:00Z"))

    static func verdict(_ disposition: FixtureRecords.Disposition, _ caseId: String, day: Int) -> Verdict {
        try! Verdict(
            json: FixtureRecords.verdict(
                disposition, caseId: caseId, mandate: mandate, authority: authority, classId: "csam",
                decidedAt: "2026-08-1\(day)T00:00:00Z"))
    }

    @Test(arguments: [
        // (verdicts as disposition/case/day, expected reversals as "dismissal day: ban days")
        ([("ban", "c", 1), ("dismiss", "c", 2)], ["2: 1"]),
        ([("ban", "c", 1), ("dismiss", "c", 2), ("dismiss", "c", 3)], ["2: 1"]),  // a second dismissal undoes nothing
        ([("ban", "c", 1), ("ban", "c", 2), ("dismiss", "c", 3)], ["3: 1,2"]),
        ([("dismiss", "c", 1), ("ban", "c", 2)], []),  // a dismissal before any ban
        ([("ban", "c", 1), ("dismiss", "d", 2)], []),  // another case
        ([("ban", "c", 1), ("dismiss", "c", 2), ("ban", "c", 3), ("dismiss", "c", 4)], ["2: 1", "4: 3"]),
    ])
    func dismissalsUndoTheStandingBansOfTheirCase(_ input: [(String, String, Int)], _ expected: [String]) {
        let verdicts = input.reversed().map { kind, caseId, day in
            Self.verdict(kind == "ban" ? .ban : .dismiss, caseId, day: day)
        }
        let found = Reversal.all(in: verdicts).map { reversal in
            "\(reversal.dismissal.decidedAt.rfc3339.dropFirst(9).prefix(1)): "
                + reversal.bans.map { String($0.decidedAt.rfc3339.dropFirst(9).prefix(1)) }.joined(separator: ",")
        }
        #expect(found == expected)
    }
}

/// The timeline draws at most `maxBars` bars: a signed time centuries back widens the bars, it does not make
/// a page of a million of them.
@Suite("Report timeline")
struct TimelineTests {
    @Test func aLongSpanWidensTheBarsAndKeepsEveryCount() {
        let week = TimelineChart.secondsPerWeek
        var weeks: [Int64: TimelineChart.Week] = [:]
        weeks[0] = TimelineChart.Week(writesOK: 3)
        weeks[5 * week] = TimelineChart.Week(ban: 1)
        #expect(TimelineChart.bars(weeks).count == 6)  // short span: one bar a week, empty weeks drawn
        weeks[-1_000 * 52 * week] = TimelineChart.Week(openCase: 2)  // a thousand years back
        let bars = TimelineChart.bars(weeks)
        #expect(bars.count <= Int(TimelineChart.maxBars))
        #expect(bars.reduce(0) { $0 + $1.week.writesOK } == 3)
        #expect(bars.reduce(0) { $0 + $1.week.ban + $1.week.openCase } == 3)
    }
}
