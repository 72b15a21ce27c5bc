import LedgerFormat

/// What a record says, in the words a reader needs, above its hashes and exact bytes: an authority
/// manifest's classes and their terms, names and recourse addresses (URLs shown as text, never as links:
/// the site links only inside itself); an enforcement profile's identity and
/// the bits its marks are written to; a compromise report's and a revocation's times and triggers. Records
/// that a binding's story narrates (mandates, verdicts, receipts) are read there.
enum RecordReading {
    /// The readable part of a record page, or nothing for a kind the stories narrate.
    static func render(_ record: any StoredRecord) -> String {
        switch record {
        case let manifest as AuthorityManifest: manifestReading(manifest)
        case let profile as EnforcementProfile: profileReading(profile)
        case let report as CompromiseReport:
            HTML.facts([
                ("Authority", authorityLink(report.authority)),
                ("What it says", "The authority reports that the operator key of its manifest was compromised."),
                ("Compromised at", HTML.time(report.compromisedAt)),
                ("Reported at", HTML.time(report.reportedAt)),
                ("Manifest whose key it reports", HTML.address(report.manifestHash)),
            ])
        case let revocation as RevocationDetermination:
            HTML.facts([
                ("Interface", HTML.code(revocation.interface)),
                ("Authority whose designation it revokes", authorityLink(revocation.authority)),
                ("Why", triggerText(revocation.trigger)),
                ("Effective at", HTML.time(revocation.effectiveAt)),
                ("Determined at", HTML.time(revocation.determinedAt)),
                ("Records it cites", revocation.evidence.map(HTML.address).joined(separator: "<br>")),
            ])
        case let attempt as StatusAttempt:
            HTML.facts([
                ("Interface", HTML.code(attempt.interface)),
                ("Authority it tried to reach", authorityLink(attempt.authority)),
                ("Attempted at", HTML.time(attempt.attemptedAt)),
                (
                    "Answered",
                    attempt.answered ? "yes" + (attempt.answeredAt.map { ", at " + HTML.time($0) } ?? "") : "no"
                ),
            ])
        default: ""
        }
    }

    /// The title of a record page: what the record is, in words.
    static func title(_ stored: LedgerContents.Stored) -> String {
        switch stored.record {
        case let manifest as AuthorityManifest: "Authority manifest of \(manifest.componentId)"
        case let profile as EnforcementProfile: "Enforcement profile \(profile.profileId)"
        case let report as CompromiseReport: "Compromise report of \(report.authority)"
        case let revocation as RevocationDetermination: "Revocation of \(revocation.authority)"
        case let attempt as StatusAttempt: "Status attempt to reach \(attempt.authority)"
        default: "\(stored.kindName) \(stored.address.hex.prefix(12))"
        }
    }

    /// A manifest's violation classes and their terms, as the users consented to them — the same table on
    /// the authority's page and on the manifest's own page.
    static func classTable(_ manifest: AuthorityManifest) -> String {
        let rows = manifest.classes.map { item in
            [
                HTML.code(item.classId),
                "\(item.responseWindowDays) days", "\(item.decisionDeadlineDays) days",
                "\(item.appealWindowDays) days", AuthorityPage.banTerm(item.banTerm),
                HTML.escape(item.appealEffect.rawValue),
            ]
        }
        return HTML.table(
            caption: "Violation classes the users consented to",
            headers: [
                "Class", "Response window", "Decision deadline", "Appeal window", "Ban term",
                "Appeal effect",
            ], rows: rows)
    }

    private static func manifestReading(_ manifest: AuthorityManifest) -> String {
        let text = { (field: String) in manifest.json[field]?.stringValue }
        var facts: [(String, String)] = [
            ("Authority", HTML.code(manifest.componentId)),
            ("Seat", text("seat").map(HTML.code) ?? "—"),
            ("Operator key (signs its verdicts)", text("operator").map(HTML.code) ?? "—"),
            ("Moderation profile", text("moderationProfileId").map(HTML.code) ?? "—"),
            ("Valid until", HTML.time(manifest.validUntil)),
            ("Appeals go to", appellateText(manifest.appellate)),
        ]
        let recourse: [(String, String)] = [
            ("newHolderAppeal", "Appeal by a device's new holder"), ("evidenceRules", "Evidence rules"),
            ("reputationPolicy", "Reputation policy"), ("confidentiality", "Confidentiality"),
            ("statistics", "Statistics"),
        ]
        for (field, label) in recourse {
            if let value = text(field) { facts.append((label, HTML.code(value))) }
        }
        for (field, label) in [("definition", "Class definitions"), ("lawfulReporting", "Lawful reporting")] {
            let texts = classTexts(manifest, field: field)
            let lines = manifest.classes.compactMap { item in
                texts[item.classId].map { "\(HTML.code(item.classId)): \(HTML.code($0))" }
            }
            if !lines.isEmpty { facts.append((label, lines.joined(separator: "<br>"))) }
        }
        return HTML.facts(facts) + classTable(manifest)
    }

    private static func profileReading(_ profile: EnforcementProfile) -> String {
        let text = { (field: String) in profile.json[field]?.stringValue }
        let marks = profile.markBindings.keys.sorted().map {
            "\(HTML.code($0)) → \(HTML.code(profile.markBindings[$0]!))"
        }
        let bindings = profile.json["bindings"]?.objectValue?.keys ?? []
        return HTML.facts([
            ("Profile", HTML.code(profile.profileId)),
            ("Platform", HTML.code(profile.platform)),
            ("Marks and the bits they are written to", marks.joined(separator: "<br>")),
            ("Interactions it defines", bindings.map(HTML.code).joined(separator: ", ")),
            ("Case notice schema", text("caseNoticeSchema").map(HTML.code) ?? "—"),
            ("Specification (content address)", text("specification").map(HTML.code) ?? "—"),
        ])
    }

    /// A class field that the parsed manifest does not keep (it is descriptive, not a rule), by class id.
    private static func classTexts(_ manifest: AuthorityManifest, field: String) -> [String: String] {
        guard case .array(let classes) = manifest.json["violationClasses"] else { return [:] }
        var texts: [String: String] = [:]
        for case .object(let item) in classes {
            if let id = item["classId"]?.stringValue, let value = item[field]?.stringValue { texts[id] = value }
        }
        return texts
    }

    private static func appellateText(_ appellate: String?) -> String {
        switch appellate {
        case nil: "— (the manifest names no appellate forum)"
        case "self": "the authority itself (<code class=\"word\">self</code>)"
        case let forum?: HTML.code(forum)
        }
    }

    private static func authorityLink(_ authority: String) -> String {
        "<a href=\"../\(SiteLinks.authority(authority))\">\(HTML.code(authority))</a>"
    }

    private static func triggerText(_ trigger: RevocationDetermination.Trigger) -> String {
        switch trigger {
        case .authorityCompromise:
            "the authority reported its own compromise (<code class=\"word\">authority-compromise</code>)"
        case .unreachable:
            "the authority did not answer for the unreachability window (<code class=\"word\">unreachable</code>)"
        }
    }
}
