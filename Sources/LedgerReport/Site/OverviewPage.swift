import LedgerFormat
import LedgerStore
import LedgerVerifier

/// `index.html`: what was verified and how, who the vendor is and what it may write, who signs, the
/// counts, the timeline, and the way into authorities and bindings. Conduct findings come first.
enum OverviewPage {
    static func render(_ model: ReportModel) -> String {
        let descriptor = model.contents.descriptor
        var body = VerificationBanner.render(model, depth: 0)
        body += "<section aria-labelledby=\"vendor\"><h2 id=\"vendor\">The vendor and what it may write</h2>\n"
        var facts: [(String, String)] = [
            ("Ledger", HTML.escape(descriptor.ledgerId)),
            ("Interface vendor", "\(HTML.code(descriptor.interface))"),
        ]
        if let account = descriptor.appleAccount {
            facts.append(("Apple team", "\(HTML.code(account.teamId))"))
            facts.append(
                (
                    "Apps (DeviceCheck scope)",
                    account.apps.map { "\(HTML.code($0))" }.joined(separator: ", ")
                ))
        }
        if let profile = model.contents.profile {
            let stored = model.stored(EnforcementProfile.self, profile.ref)
            let link =
                stored.map { "<a href=\"\(model.links.record($0))\">\(HTML.address(profile.ref))</a>" }
                ?? HTML.address(profile.ref)
            facts.append(("Declared profile", "\(HTML.escape(profile.platform)) — \(link)"))
        }
        body += HTML.facts(facts) + "</section>\n"
        body += signers(model)
        body += counts(model)
        body += "<section aria-labelledby=\"timeline\"><h2 id=\"timeline\">Timeline, by week</h2>\n"
        body += TimelineChart.render(model) + "</section>\n"
        body += "<section aria-labelledby=\"authorities\"><h2 id=\"authorities\">Authorities</h2>\n<ul>\n"
        for authority in model.authorities {
            let revoked = authority.revocations.isEmpty ? "" : " — designation revoked"
            body +=
                "<li><a href=\"\(SiteLinks.authority(authority.componentId))\">\(HTML.code(authority.componentId))</a>: "
                + "\(authority.verdicts.count) verdicts in \(authority.cases.count) cases\(revoked)</li>\n"
        }
        body += "</ul></section>\n"
        body += """
            <section aria-labelledby="find"><h2 id="find">Find a device or a person</h2>
            <p>Every device binding has a page telling its history. Browse them in the <a href="bindings/index.html">index of
            \(model.stories.count) device bindings</a>, or <a href="search.html">search</a> by device binding or by an
            <code>onym:key:</code> identity.</p></section>

            """
        return HTML.page(title: "\(descriptor.ledgerId) — enforcement ledger", depth: 0, body: body)
    }

    private static func signers(_ model: ReportModel) -> String {
        let rows = model.contents.signerChanges.map { change in
            [
                HTML.time(change.time), "\(HTML.code(change.commit.short))",
                change.keys.map { "\(HTML.code($0))" }.joined(separator: "<br>"),
                (change.added.map { "+ \(HTML.code($0))" }
                    + change.removed.map { "− \(HTML.code($0))" }).joined(separator: "<br>"),
            ]
        }
        let summary = model.ledger.summary
        var log = ""
        if let current = summary.transparencyLog?.key {
            log =
                "<p>The transparency log's checkpoints are signed by the log key \(HTML.code(current.description))"
                + (summary.logHandovers.isEmpty
                    ? ".</p>\n"
                    : "; the log was handed to a new key at these commits (the new log's first checkpoint states the "
                        + "old log's last size and root):</p>\n"
                        + HTML.table(
                            caption: "Log handovers", headers: ["Commit", "Size", "From", "To"],
                            rows: summary.logHandovers.map {
                                [
                                    "\(HTML.code($0.commit.short))", "\($0.size)",
                                    "\(HTML.code($0.from.description))",
                                    "\(HTML.code($0.to.description))",
                                ]
                            }))
        }
        return "<section aria-labelledby=\"signers\"><h2 id=\"signers\">Who signs the ledger</h2>\n"
            + "<p>Each commit is signed by a key the previous commit allows. The keys changed at these commits:</p>\n"
            + HTML.table(
                caption: "Commit signers and rotations", headers: ["When", "Commit", "Allowed keys", "Change"],
                rows: rows)
            + log
            + "</section>\n"
    }

    private static func counts(_ model: ReportModel) -> String {
        let summary = model.ledger.summary
        var rows: [[String]] = summary.recordsByKind.sorted { $0.key < $1.key }.map {
            [HTML.escape($0.key), "\($0.value)"]
        }
        rows.append(["device bindings", "\(model.stories.count)"])
        var dispositions: [Verdict.Disposition: Int] = [:]
        for verdict in model.contents.verdicts { dispositions[verdict.disposition, default: 0] += 1 }
        let verdictRows = [Verdict.Disposition.openCase, .ban, .dismiss].map {
            [HTML.escape($0.rawValue), "\(dispositions[$0] ?? 0)"]
        }
        let failed = model.contents.entries.filter { !$0.succeeded }.count
        return
            "<section aria-labelledby=\"counts\"><h2 id=\"counts\">What the ledger holds</h2>\n<div class=\"columns\">\n"
            + HTML.table(caption: "Records", headers: ["Kind", "Count"], rows: rows)
            + HTML.table(caption: "Verdicts by disposition", headers: ["Disposition", "Count"], rows: verdictRows)
            + HTML.table(
                caption: "Bit writes", headers: ["Outcome", "Count"],
                rows: [["ok", "\(model.contents.entries.count - failed)"], ["failed", "\(failed)"]])
            + "</div></section>\n"
    }
}

extension VerificationBanner {
    /// One line for pages a reader may land on directly (a binding's story): what was verified, and a way
    /// to the full statement and any conduct findings.
    static func line(_ model: ReportModel, depth: Int) -> String {
        let root = String(repeating: "../", count: depth)
        let findings = model.ledger.conductFindings.count
        let status =
            findings == 0
            ? "verified, every write authorized"
            : "authentic, with <a href=\"\(root)index.html#verified\">\(findings) conduct finding\(findings == 1 ? "" : "s")</a>"
        return "<p class=\"verified-line\">From the ledger's history at tip \(HTML.code(model.contents.tip.short)), "
            + "\(status), checked \(HTML.time(model.now)) against "
            + model.ledger.trust.map { "\(HTML.code($0))" }.joined(separator: ", ")
            + ". <a href=\"\(root)verify.html\">Check it yourself</a>.</p>\n"
    }
}

/// The statement at the top of every page that needs it: what was verified, against what, when — and the
/// conduct findings, before anything else.
enum VerificationBanner {
    static func render(_ model: ReportModel, depth: Int) -> String {
        let ledger = model.ledger
        let summary = ledger.summary
        let compliant = ledger.conductFindings.isEmpty
        var out = "<section class=\"verification \(compliant ? "ok" : "findings")\" aria-labelledby=\"verified\">\n"
        out +=
            "<h2 id=\"verified\">\(compliant ? "Verified: authentic, every write authorized" : "Authentic, with \(ledger.conductFindings.count) conduct finding\(ledger.conductFindings.count == 1 ? "" : "s")")</h2>\n"
        if !compliant {
            out +=
                "<p>The history is what the vendor signed, and it shows the vendor breaking the rules:</p>\n<ol class=\"conduct\">\n"
            for finding in ledger.conductFindings {
                var place = ""
                if let write = finding.write {
                    place =
                        " <a href=\"\(String(repeating: "../", count: depth))\(SiteLinks.binding(write.binding))#\(SiteLinks.writeAnchor(write.sequence))\">write \(write.sequence)</a>"
                }
                out +=
                    "<li><strong>\(HTML.escape(finding.policy))</strong>: \(HTML.escape(finding.reason))\(place)</li>\n"
            }
            out += "</ol>\n"
        }
        var facts: [(String, String)] = [
            ("Checked at", HTML.time(model.now)),
            ("Tip commit", "\(HTML.code(model.contents.tip.hex))"),
            ("Root of trust", ledger.trust.map { "\(HTML.code($0))" }.joined(separator: ", ")),
            ("Signed commits", "\(summary.commits)"),
            ("Signatures checked", "\(summary.signaturesChecked)"),
        ]
        if let log = summary.transparencyLog {
            facts.append(
                (
                    "Transparency log",
                    "\(HTML.code(log.key.name)), size \(log.size), root <code>\(Base64.encode(log.root.bytes))</code>"
                ))
        }
        out += HTML.facts(facts)
        out +=
            "<p>The verifier checked every commit's signature, every record's content address and signatures, and "
            + "replayed every bit write against the rules. <a href=\"\(String(repeating: "../", count: depth))verify.html\">Check it yourself</a>.</p>\n"
        return out + "</section>\n"
    }
}
