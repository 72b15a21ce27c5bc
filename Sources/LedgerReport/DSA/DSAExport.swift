public import LedgerFormat

/// `onym-ledger export dsa`: the ledger's bans and reversals as statements of reasons in the DSA Transparency
/// Database's submission shape (issue 16), one per ban verdict the vendor received and one per dismissal
/// that reversed a ban. docs/DSA.md says how each field is derived; DECISIONS.md why.
public enum DSAExport {
    /// One statement: its fields in submission order (absent optional fields are left out).
    public struct Statement: Sendable {
        public let fields: [(String, JSONValue)]

        public var json: JSONObject { JSONObject(fields) }
    }

    /// The statements for `contents`, oldest decision first.
    public static func statements(_ contents: LedgerContents, config: DSAConfig) -> [Statement] {
        var received: Set<ContentAddress> = []
        for receipt in contents.receipts { received.insert(receipt.verdictRef) }
        let verdicts = contents.verdicts.filter { received.contains($0.ref) }
            .sorted { ($0.decidedAt, $0.ref.hex) < ($1.decidedAt, $1.ref.hex) }
        let byCase = Dictionary(grouping: verdicts) { VerdictFact.CaseKey(authority: $0.authority, caseId: $0.caseId) }
        var reversed: [ContentAddress: Verdict] = [:]
        for reversal in Reversal.all(in: verdicts) { reversed[reversal.dismissal.ref] = reversal.bans.last }
        var path: [ContentAddress: String] = [:]
        for stored in contents.records where stored.record is Verdict { path[stored.address] = stored.path }
        var statements: [Statement] = []
        for verdict in verdicts {
            let group = byCase[VerdictFact.CaseKey(authority: verdict.authority, caseId: verdict.caseId)] ?? []
            let opened = group.map(\.decidedAt).min() ?? verdict.decidedAt
            switch verdict.disposition {
            case .ban:
                statements.append(
                    statement(
                        for: verdict, reversing: nil, caseOpened: opened, config: config,
                        ledger: contents.descriptor.ledgerId,
                        path: path[verdict.ref]))
            case .dismiss:
                if let ban = reversed[verdict.ref] {
                    statements.append(
                        statement(
                            for: verdict, reversing: ban, caseOpened: opened, config: config,
                            ledger: contents.descriptor.ledgerId, path: path[verdict.ref]))
                }
            case .openCase:
                break
            }
        }
        return statements
    }

    private static func statement(
        for verdict: Verdict, reversing ban: Verdict?, caseOpened: Instant, config: DSAConfig, ledger: String,
        path: String?
    ) -> Statement {
        let classId = (ban ?? verdict).classId
        let mapping = config.mapping(of: classId)
        var fields: [(String, JSONValue)] = []
        let original = ban ?? verdict
        let permanent = original.banExpires == nil
        fields.append(
            (
                "decision_account",
                .string(permanent && ban == nil ? "DECISION_ACCOUNT_TERMINATED" : "DECISION_ACCOUNT_SUSPENDED")
            ))
        fields.append(("account_type", .string(config.accountType)))
        if !mapping.categorySpecification.isEmpty {
            fields.append(("category_specification", .array(mapping.categorySpecification.map { .string($0) })))
        }
        fields.append(("decision_ground", .string(mapping.decisionGround)))
        if mapping.decisionGround == "DECISION_GROUND_ILLEGAL_CONTENT" {
            fields.append(("illegal_content_legal_ground", .string(mapping.ground)))
            fields.append(("illegal_content_explanation", .string(mapping.explanation)))
        } else {
            fields.append(("incompatible_content_ground", .string(mapping.ground)))
            fields.append(("incompatible_content_explanation", .string(mapping.explanation)))
            if let illegal = mapping.incompatibleContentIllegal {
                fields.append(("incompatible_content_illegal", .string(illegal)))
            }
        }
        fields.append(("content_type", .array(config.contentType.map { .string($0) })))
        if config.contentType.contains("CONTENT_TYPE_OTHER"), let other = config.contentTypeOther {
            fields.append(("content_type_other", .string(other)))
        }
        fields.append(("category", .string(mapping.category)))
        if let scope = config.territorialScope {
            fields.append(("territorial_scope", .array(scope.map { .string($0) })))
        }
        fields.append(("content_date", .string(date(caseOpened))))
        // A ban applies from when it takes effect; a reversal from its own decision.
        let applies = ban == nil ? max(verdict.executeAfter ?? verdict.decidedAt, verdict.decidedAt) : verdict.decidedAt
        fields.append(("application_date", .string(date(applies))))
        if ban != nil {
            fields.append(("end_date_account_restriction", .string(date(verdict.decidedAt))))
        } else if let expires = verdict.banExpires {
            fields.append(("end_date_account_restriction", .string(date(expires))))
        }
        fields.append(("decision_facts", .string(facts(verdict, reversing: ban, ledger: ledger, path: path))))
        fields.append(("source_type", .string(config.sourceType)))
        if config.sourceType != "SOURCE_VOLUNTARY" {
            var identity = String.UnicodeScalarView()
            identity.append(contentsOf: verdict.authority.unicodeScalars.prefix(DSAVocabulary.maxIdentity))
            fields.append(("source_identity", .string(String(identity))))
        }
        fields.append(("automated_detection", .string(config.automatedDetection)))
        fields.append(("automated_decision", .string(config.automatedDecision)))
        // Unique per statement and never reused: the deciding verdict's content address.
        fields.append(("puid", .string("onym-" + verdict.ref.hex)))
        return Statement(fields: fields)
    }

    /// The facts and circumstances: who decided what, when, in which case, the authority's reasoning, and
    /// where the signed verdict is — cut to the database's 5 000 characters.
    static func facts(_ verdict: Verdict, reversing ban: Verdict?, ledger: String, path: String?) -> String {
        var head: String
        if let ban {
            head =
                "Reversal: \(verdict.authority) dismissed case \(verdict.caseId) on \(verdict.decidedAt.rfc3339), "
                + "lifting the device ban decided on \(ban.decidedAt.rfc3339) (verdict \(ban.ref.hex))."
        } else {
            let term = verdict.banExpires.map { "until \($0.rfc3339)" } ?? "with no end date"
            head =
                "\(verdict.authority), a moderation authority the user designated by signed consent, banned the "
                + "device \(term) in case \(verdict.caseId) (class \(verdict.classId)) on \(verdict.decidedAt.rfc3339)."
        }
        head += " The decision is executed by setting the device's Apple DeviceCheck bits."
        let tail =
            " Signed verdict \(verdict.ref.hex) in the onym ledger \(ledger)" + (path.map { " at \($0)" } ?? "")
            + "; it can be checked with onym-ledger verify and prove."
        return factsText(head: head, reasoning: verdict.reasoning, tail: tail)
    }

    /// `head`, the reasoning (shortened with `…` when the whole would pass the database's limit), `tail`.
    /// Lengths are counted in Unicode code points, as the database's validation counts characters (a
    /// grapheme of several code points counts as several).
    static func factsText(head: String, reasoning: String, tail: String) -> String {
        var middle = reasoning.isEmpty ? "" : " Reasoning: " + reasoning
        if let last = middle.last, !".!?…".contains(last) { middle += "." }
        let room = DSAVocabulary.maxFacts - head.unicodeScalars.count - tail.unicodeScalars.count
        if middle.unicodeScalars.count > room {
            var kept = String.UnicodeScalarView()
            kept.append(contentsOf: middle.unicodeScalars.prefix(max(0, room - 1)))
            middle = String(kept) + "…"
        }
        return head + middle + tail
    }

    /// `YYYY-MM-DD` in UTC, clamped to the database's accepted range (2000-01-01 … 2038-01-01).
    static func date(_ instant: Instant) -> String {
        let text = String(instant.rfc3339.prefix(10))
        return min(max(text, "2000-01-01"), "2038-01-01")
    }

    /// The statements as JSON Lines (one canonical JSON object per line).
    public static func jsonLines(_ statements: [Statement]) -> String {
        statements.map { String(decoding: CanonicalJSON.encode($0.json), as: UTF8.self) + "\n" }.joined()
    }

    /// The CSV columns, in order: every field a statement can have.
    static let columns = [
        "puid", "decision_account", "account_type", "category", "category_specification", "decision_ground",
        "illegal_content_legal_ground", "illegal_content_explanation", "incompatible_content_ground",
        "incompatible_content_explanation", "incompatible_content_illegal", "content_type", "content_type_other",
        "territorial_scope", "content_date", "application_date", "end_date_account_restriction", "decision_facts",
        "source_type", "source_identity", "automated_detection", "automated_decision",
    ]

    /// The statements as CSV (RFC 4180: a header row, CRLF line ends, fields quoted when they hold a comma,
    /// quote or line break); list fields as JSON arrays, absent fields empty.
    public static func csv(_ statements: [Statement]) -> String {
        func cell(_ text: String) -> String {
            text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                ? "\"" + text.replacing("\"", with: "\"\"") + "\"" : text
        }
        var out = columns.joined(separator: ",") + "\r\n"
        for statement in statements {
            let object = statement.json
            out +=
                columns.map { column -> String in
                    switch object[column] {
                    case .string(let text)?: cell(text)
                    case .array?: cell(String(decoding: CanonicalJSON.encode(object[column]!), as: UTF8.self))
                    default: ""
                    }
                }.joined(separator: ",") + "\r\n"
        }
        return out
    }
}
