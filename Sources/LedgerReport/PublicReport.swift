public import LedgerFormat
import LedgerStore
public import LedgerVerifier

/// `onym-ledger report`: a static HTML site of a verified ledger, for the people it is about.
///
/// Generated from verified history only (an `AuditedLedger`): a ledger with integrity findings gets no
/// report; one with conduct findings gets them at the top of every overview. No server, no external assets:
/// relative links, one stylesheet, one script (search only), inline SVG; it works from `file://` and any
/// static host.
public enum PublicReport {
    /// What was written.
    public struct Written: Sendable {
        public let folder: String
        public let files: Int
        public let bytes: Int
        public let bindings: Int
        public let conductFindingCount: Int

        public var json: JSONObject {
            JSONObject([
                ("folder", .string(folder)), ("files", .integer(Int64(files))), ("bytes", .integer(Int64(bytes))),
                ("bindings", .integer(Int64(bindings))), ("conductFindingCount", .integer(Int64(conductFindingCount))),
            ])
        }
    }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        /// The witnesses asked for did not cosign the tip's checkpoint (as `verify` says "not witnessed").
        public var notWitnessed = false
    }

    /// Writes the site of `ledger` into `folder` (replacing a previous report there, refusing any other
    /// non-empty folder). `progress` is told how many binding pages are done, of how many. The pages check
    /// their records in the reader's browser against the tip's checkpoint, and its cosignatures by at least
    /// `quorum` of `witnesses` when given (`RecordProofs`).
    public static func write(
        _ ledger: AuditedLedger, to folder: String, witnesses: [NoteKey] = [], quorum: Int = 0,
        progress: ((Int, Int) -> Void)? = nil
    ) throws(Failure) -> Written {
        let contents: LedgerContents
        do { contents = try LedgerContents(ledger) } catch { throw Failure(description: error.description) }
        var model = ReportModel(ledger, contents: contents)
        model.proofs = try RecordProofs.make(ledger, contents: contents, witnesses: witnesses, quorum: quorum)
        let site: SiteFolder
        do { site = try SiteFolder(folder) } catch { throw Failure(description: error.description) }
        do {
            try site.add("index.html", OverviewPage.render(model))
            try site.add("style.css", SiteAssets.stylesheet + VerifyScript.stylesheet)
            try site.add("search.js", SiteAssets.searchScript)
            if model.proofs != nil { try site.add(RecordProofs.script, VerifyScript.source) }
            try site.add("search.html", SearchIndex.page())
            try site.add("verify.html", SiteAssets.verifyPage())
            for authority in model.authorities {
                try site.add(SiteLinks.authority(authority.componentId), AuthorityPage.render(authority, model: model))
            }
            for (index, story) in model.stories.enumerated() {
                try site.add(SiteLinks.binding(story.binding), BindingPage.render(story, model: model))
                if index % 1_000 == 999 { progress?(index + 1, model.stories.count) }
            }
            progress?(model.stories.count, model.stories.count)
            for (path, page) in BindingIndexPages.render(model) { try site.add(path, page) }
            for (path, script) in SearchIndex.shards(model) { try site.add(path, script) }
            for stored in contents.records where model.links.hasOwnPage(stored) {
                try site.add(SiteLinks.ownPage(stored), RecordPage.render(stored, proofs: model.proofs))
            }
            try site.commit()
        } catch {
            site.abandon()
            throw Failure(description: error.description)
        }
        return Written(
            folder: site.folder, files: site.files, bytes: site.bytes, bindings: model.stories.count,
            conductFindingCount: ledger.conductFindings.count)
    }
}
