import LedgerFormat

/// `authorities/a-….html`: one authority — its manifests and classes, its verdicts by class and disposition,
/// its cases' time to decision against their deadlines, deadline defaults, reversals, revocation status.
enum AuthorityPage {
    static func render(_ authority: AuthorityRecord, model: ReportModel) -> String {
        let links = model.links
        func verdictLink(_ verdict: Verdict, _ text: String) -> String {
            "<a href=\"../\(links.verdict(verdict.ref) ?? "index.html")\">\(HTML.escape(text))</a>"
        }
        func verdictLink(_ verdict: Verdict, _ text: WireString) -> String { verdictLink(verdict, text.text) }
        var body = ""
        if authority.revocations.isEmpty {
            body += "<p class=\"status\">Designation: <strong>in force</strong> (no revocation in the ledger).</p>\n"
        } else {
            body += "<p class=\"status revoked\">Designation: <strong>revoked</strong>.</p>\n<ul>\n"
            for revocation in authority.revocations {
                let stored = model.stored(RevocationDetermination.self, revocation.ref)
                let link = stored.map { " <a href=\"../\(links.record($0))\">record</a>" } ?? ""
                body +=
                    "<li>Trigger \(HTML.escape(revocation.trigger.rawValue)), effective \(HTML.time(revocation.effectiveAt)), determined \(HTML.time(revocation.determinedAt))\(link)</li>\n"
            }
            body += "</ul>\n"
        }
        for report in authority.compromiseReports {
            body +=
                "<p>Reported a key compromise at \(HTML.time(report.compromisedAt)) (reported \(HTML.time(report.reportedAt))).</p>\n"
        }
        body += "<section aria-labelledby=\"manifest\"><h2 id=\"manifest\">Manifest and classes</h2>\n"
        for manifest in authority.manifests {
            let stored = model.stored(AuthorityManifest.self, manifest.hash)
            body +=
                "<p>Manifest \(stored.map { "<a href=\"../\(links.record($0))\">\(HTML.address(manifest.hash))</a>" } ?? HTML.address(manifest.hash)), valid until \(HTML.time(manifest.validUntil)); appeals go to \(HTML.code(manifest.appellate?.text ?? "—")).</p>\n"
            body += RecordReading.classTable(manifest)
        }
        body += "</section>\n"

        let dispositions: [Verdict.Disposition] = [.openCase, .ban, .dismiss]
        body += "<section aria-labelledby=\"verdicts\"><h2 id=\"verdicts\">Verdicts</h2>\n"
        body += HTML.table(
            caption: "Verdicts by class and disposition", headers: ["Class"] + dispositions.map(\.rawValue) + ["Total"],
            rows: authority.countsByClass.map { row in
                ["\(HTML.code(row.classId))"] + dispositions.map { "\(row.counts[$0] ?? 0)" }
                    + ["\(row.counts.values.reduce(0, +))"]
            })
        body += "</section>\n"

        let decided = authority.cases.compactMap(\.daysToDecision).sorted()
        let late = authority.cases.filter(\.late)
        let defaults = authority.deadlineDefaults(at: model.now)
        body += "<section aria-labelledby=\"timing\"><h2 id=\"timing\">Time from open case to decision</h2>\n"
        if decided.isEmpty {
            body += "<p>No case was opened and then decided.</p>\n"
        } else {
            let median = decided[decided.count / 2]
            body +=
                "<p>\(decided.count) cases opened and decided: median \(format(median)) days, longest \(format(decided.last!)) days; "
                + "\(late.count) decided after their deadline.</p>\n"
        }
        let rows = authority.cases.filter { $0.opened != nil }.map { item -> [String] in
            let opened = item.opened!
            return [
                verdictLink(opened, item.caseId), "\(HTML.code(item.classId))",
                HTML.time(opened.decidedAt),
                item.deadline.map(HTML.time) ?? "—",
                item.decided.map { verdictLink($0, "\($0.disposition.rawValue) at \($0.decidedAt.rfc3339)") }
                    ?? "undecided",
                item.daysToDecision.map { format($0) } ?? "—", item.late ? "late" : "",
            ]
        }
        body += HTML.table(
            caption: "Cases opened", headers: ["Case", "Class", "Opened", "Deadline", "Decision", "Days", ""],
            rows: rows)
        body += "</section>\n<section aria-labelledby=\"defaults\"><h2 id=\"defaults\">Deadline defaults</h2>\n"
        body +=
            defaults.isEmpty
            ? "<p>No open case passed its deadline undecided.</p>\n"
            : "<p>These cases passed their decision deadline with no decision; the rules dismiss them by default "
                + "(<code>decision-deadline-default</code>) and clear their mark:</p>\n<ul>\n"
                + defaults.map { item in
                    "<li>\(item.opened.map { verdictLink($0, item.caseId) } ?? HTML.escape(item.caseId)), deadline \(item.deadline.map(HTML.time) ?? "—")</li>"
                }.joined(separator: "\n") + "\n</ul>\n"
        body += "</section>\n<section aria-labelledby=\"reversals\"><h2 id=\"reversals\">Reversals</h2>\n"
        let reversals = authority.reversals
        body +=
            reversals.isEmpty
            ? "<p>No ban was reversed.</p>\n"
            : "<ul>\n"
                + reversals.map { reversal in
                    "<li>Case \(HTML.escape(reversal.dismissal.caseId)): "
                        + reversal.bans.map { verdictLink($0, "ban of \($0.decidedAt.rfc3339)") }.joined(
                            separator: ", ")
                        + " dismissed by "
                        + verdictLink(reversal.dismissal, "the verdict of \(reversal.dismissal.decidedAt.rfc3339)")
                        + "</li>"
                }.joined(separator: "\n") + "\n</ul>\n"
        body += "</section>\n"
        let sources = AuthoritySources.records(authority, model: model)
        let check = sources.isEmpty ? nil : model.proofs
        body += AuthoritySources.section(sources, proofs: check)
        return HTML.page(
            title: "Authority \(authority.componentId)", depth: 1, heading: "Authority \(authority.componentId)",
            body: VerificationBanner.render(model, depth: 1) + (check?.pageSection(depth: 1) ?? "") + body,
            script: check.map { _ in RecordProofs.script })
    }

    static func format(_ days: Double) -> String {
        let tenths = (days * 10).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths))" : "\(tenths)"
    }
}
