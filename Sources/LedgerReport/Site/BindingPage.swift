import LedgerFormat

/// `bindings/b-….html`: one device binding's history as a story, each step with its record.
enum BindingPage {
    static func render(_ story: BindingStory, model: ReportModel) -> String {
        let records = model.recordsByKey
        let links = model.links
        var body = VerificationBanner.line(model, depth: 1)
        body += model.proofs?.pageSection(depth: 1) ?? ""
        body += HTML.facts([
            ("Device binding", "\(HTML.code(story.binding))"),
            ("Identities (onym:key)", story.users.map { "\(HTML.code($0))" }.joined(separator: "<br>")),
            (
                "Now, by the rules",
                "\(HTML.escape(BindingStory.words(story.intended.bits))) (as of \(HTML.time(model.now)))"
            ),
            ("Last bits written", story.lastWritten.map { HTML.escape(BindingStory.words($0)) } ?? "none"),
        ])
        if story.users.count > 1 {
            body +=
                "<p class=\"note\">More than one identity consented on this device binding (a new holder or a reinstall): each is shown.</p>\n"
        }
        body += "<h2>History</h2>\n<ol class=\"story\">\n"
        for event in story.events {
            body +=
                "<li>"
                + describe(event, story: story, now: model.now, records: records, links: links, proofs: model.proofs)
                + "</li>\n"
        }
        body += "</ol>\n"
        return HTML.page(
            title: "Device binding \(story.binding)", depth: 1, heading: "Device binding \(story.binding)",
            body: body, script: model.proofs.map { _ in RecordProofs.script })
    }

    private static func describe(
        _ event: BindingStory.Event, story: BindingStory, now: Instant,
        records: [ReportModel.RecordKey: LedgerContents.Stored], links: SiteLinks, proofs: RecordProofs?
    ) -> String {
        func block(_ kind: any StoredRecord.Type, _ address: ContentAddress, _ title: String) -> String {
            records[ReportModel.RecordKey(kind: kind.kindName, address: address)].map {
                RecordBlock.render($0, title: title, proofs: proofs)
            } ?? ""
        }
        let when = "<p class=\"when\">\(HTML.time(event.time))</p>\n"
        switch event {
        case .consent(let mandate):
            let text =
                "<p><strong>Consent.</strong> Identity \(HTML.code(mandate.userKey)) accepted "
                + "\(HTML.code(mandate.authority)) as moderation authority for "
                + mandate.classes.map { "\(HTML.code($0))" }.joined(separator: ", ") + ".</p>\n"
            return when + text + block(Mandate.self, mandate.ref, "Mandate")
        case .verdict(let verdict, let receipt, let reverses):
            let action: String =
                switch verdict.disposition {
                case .openCase: "opened case"
                case .ban: "banned the device in case"
                case .dismiss: "dismissed case"
                }
            var text =
                "<p><strong>Verdict.</strong> \(HTML.code(verdict.authority)) \(action) "
                + "\(HTML.code(verdict.caseId)) (class \(HTML.code(verdict.classId))), decided "
                + "\(HTML.time(verdict.decidedAt)).</p>\n"
            if !verdict.reasoning.isEmpty {
                text += "<p class=\"label\">The authority's reasoning:</p>\n"
                text += "<blockquote>\(HTML.escape(verdict.reasoning))</blockquote>\n"
            }
            if verdict.disposition == .ban, receipt != nil {
                text += banOutcome(verdict, restriction: story.restrictions[verdict.ref], now: now)
            }
            if let appeal = verdict.appealDeadline { text += "<p>Appeal until \(HTML.time(appeal)).</p>\n" }
            if !reverses.isEmpty {
                text +=
                    "<p><strong>This reverses the ban of \(reverses.map { HTML.time($0.decidedAt) }.joined(separator: ", ")).</strong></p>\n"
            }
            text +=
                receipt.map {
                    "<p>The vendor received it \(HTML.time($0.receivedAt)) (status \(HTML.escape($0.status.rawValue))).</p>\n"
                }
                ?? "<p>No receipt: the vendor never acknowledged it, so it never counted.</p>\n"
            var blocks = block(Verdict.self, verdict.ref, "Verdict")
            if let receipt { blocks += block(VerdictReceipt.self, receipt.address, "Receipt") }
            return when + text + blocks
        case .deadlineDefault(let openCase, _):
            return when
                + "<p><strong>Deadline passed.</strong> Case \(HTML.code(openCase.caseId)) was not decided by its "
                + "deadline; by rule <code>decision-deadline-default</code> it is dismissed and its mark cleared "
                + "(<a href=\"../\(links.verdict(openCase.ref) ?? "")\">the opening verdict</a>).</p>\n"
        case .banEnded(let ban, _):
            return when
                + "<p><strong>Ban ended.</strong> The ban of case \(HTML.code(ban.caseId)) reached the end of "
                + "its term (<a href=\"#\(SiteLinks.anchor(kind: Verdict.kindName, ban.ref))\">the ban</a>).</p>\n"
        case .redemption(let redemption, let grant, let executed):
            let what: String =
                switch redemption.toBinding {
                case let to?:
                    "re-linked case \(HTML.code(redemption.caseId)) from \(HTML.code(redemption.fromBinding)) to "
                        + "\(HTML.code(to)) after a reinstall"
                case nil:
                    "ended the ban of case \(HTML.code(redemption.caseId)) on \(HTML.code(redemption.fromBinding))"
                }
            var text =
                "<p><strong>Grant redeemed.</strong> The vendor redeemed "
                + (grant.map {
                    "\(HTML.code($0.authority))'s grant for \(HTML.code($0.grantee)), issued \(HTML.time($0.issuedAt)), "
                }
                    ?? "a grant ") + "and \(what).</p>\n"
            if !executed {
                text +=
                    "<p class=\"finding\"><strong>Conduct finding:</strong> the redemption is outside the rules and "
                    + "has no effect.</p>\n"
            }
            return when + text + block(Grant.self, redemption.grantRef, "Grant")
                + block(Redemption.self, redemption.ref, "Redemption")
        case .write(let entry, let explanation, let governedBy, let unauthorized):
            var note = "<p>\(HTML.escape(explanation))</p>\n"
            if let governedBy, let link = links.verdict(governedBy) {
                note +=
                    "<p>Logged as authorized by <a href=\"../\(link)\">verdict \(governedBy.hex.prefix(12))…</a>.</p>\n"
            } else {
                note += "<p>Logged as authorized by \(HTML.code(entry.authorizedBy)).</p>\n"
            }
            if unauthorized {
                note +=
                    "<p class=\"finding\"><strong>Conduct finding:</strong> the rules do not authorize this write.</p>\n"
            }
            let outcome = entry.succeeded ? "" : " — the write failed (\(entry.outcome))"
            let title =
                "Write \(entry.sequence): bits set to \(BindingStory.words(DeviceBits(caseOpen: entry.caseOpen, banned: entry.banned)))\(outcome)"
            return when + RecordBlock.render(entry: entry, title: title, note: note, proofs: proofs)
        }
    }

    /// What became of a received ban, as the rules executed it (``BindingStory/restrictions``): when it took
    /// effect and ended, or that it is still to take effect, or that it never took effect — never its own
    /// terms told as if they ran.
    static func banOutcome(_ ban: Verdict, restriction: Restriction?, now: Instant) -> String {
        guard let restriction else {
            if let starts = ban.executeAfter, starts > now {
                return "<p>The ban is to take effect \(HTML.time(starts)) (its appeal window runs until then).</p>\n"
            }
            return "<p><strong>This ban never took effect</strong>: by the rules it was not executed (decided after "
                + "its case's deadline, reversed before it could take effect, or its authority's designation was "
                + "revoked), so it set no bits.</p>\n"
        }
        var text = "<p>The ban took effect \(HTML.time(restriction.startedAt))"
        if let ended = restriction.endedAt {
            text += " and ended \(HTML.time(ended)) (\(HTML.escape(DSAExport.endReason(restriction.endedBy))))."
        } else if let expires = ban.banExpires {
            text += "; it runs until \(HTML.time(expires))."
        } else {
            text += "; it has no end date."
        }
        return text + "</p>\n"
    }
}

/// `bindings/index.html` and `bindings/page-N.html`: every binding, in order, a page of them at a time — the
/// way to any binding without JavaScript.
enum BindingIndexPages {
    static let perPage = 200

    /// The index pages, as (path, HTML).
    static func render(_ model: ReportModel) -> [(String, String)] {
        let stories = model.stories
        let pageCount = max(1, (stories.count + perPage - 1) / perPage)
        var pages: [(String, String)] = []
        var ranges: [String] = []
        for page in 1...pageCount {
            let slice = stories[min(stories.count, (page - 1) * perPage)..<min(stories.count, page * perPage)]
            let rows = slice.map { story in
                [
                    "<a href=\"\(SiteLinks.binding(story.binding).dropFirst("bindings/".count))\">\(HTML.code(story.binding))</a>",
                    HTML.escape(BindingStory.words(story.intended.bits)),
                    "\(story.events.filter { if case .verdict = $0 { true } else { false } }.count)",
                    "\(story.events.filter { if case .write = $0 { true } else { false } }.count)",
                ]
            }
            var body = "<p>Page \(page) of \(pageCount). \(navigation(page, pageCount))</p>\n"
            body += HTML.table(
                caption: "Device bindings", headers: ["Device binding", "Now, by the rules", "Verdicts", "Writes"],
                rows: rows)
            body += "<p>\(navigation(page, pageCount))</p>\n"
            pages.append(
                (
                    SiteLinks.bindingIndexPage(page),
                    HTML.page(title: "Device bindings, page \(page)", depth: 1, body: body)
                ))
            if let first = slice.first, let last = slice.last {
                ranges.append(
                    "<li><a href=\"page-\(page).html\">Page \(page)</a>: \(HTML.code(first.binding)) … \(HTML.code(last.binding))</li>"
                )
            }
        }
        let index =
            "<p>\(stories.count) device bindings, \(perPage) to a page, in order. <a href=\"../search.html\">Search</a> finds one by binding or identity.</p>\n<ol class=\"pages\">\n"
            + ranges.joined(separator: "\n") + "\n</ol>\n"
        pages.append(("bindings/index.html", HTML.page(title: "Device bindings", depth: 1, body: index)))
        return pages
    }

    private static func navigation(_ page: Int, _ count: Int) -> String {
        var parts: [String] = ["<a href=\"index.html\">All pages</a>"]
        if page > 1 { parts.append("<a href=\"page-\(page - 1).html\" rel=\"prev\">Previous</a>") }
        if page < count { parts.append("<a href=\"page-\(page + 1).html\" rel=\"next\">Next</a>") }
        return parts.joined(separator: " · ")
    }
}

/// `records/<address>.html`: a record that is not part of one binding's story (profiles, manifests,
/// revocations, status attempts, compromise reports, grants, redemptions), with its kind's reading.
enum RecordPage {
    static func render(_ stored: LedgerContents.Stored, proofs: RecordProofs? = nil) -> String {
        HTML.page(
            title: RecordReading.title(stored), depth: 1,
            body: (proofs?.pageSection(depth: 1) ?? "") + RecordReading.render(stored.record)
                + RecordBlock.render(stored, title: "\(stored.kindName) \(stored.address.hex)", proofs: proofs),
            script: proofs.map { _ in RecordProofs.script })
    }

}
