public import LedgerFormat

public import LedgerVerifier

/// `onym-ledger export dsa`: the restrictions the ledger's bans really imposed, as statements of reasons in
/// the DSA Transparency Database's submission shape — one per ban that took effect, as the fold executed it
/// (`Restriction`, LedgerFormat), never one per verdict: a ban that never took effect (late in a defaulted case, reversed
/// inside its suspensive window, voided by a revocation) files nothing, and a reversal is the end date of
/// the restriction it ended, not a restriction of its own. docs/DSA.md says how each field is derived.
public enum DSAExport {
    /// One statement: its fields in submission order (absent optional fields are left out).
    public struct Statement: Sendable {
        public let fields: [(String, JSONValue)]

        public var json: JSONObject { JSONObject(fields) }
    }

    /// The database refuses an `application_date` before this day (its submission rules).
    static let earliestApplication = "2020-01-01"

    /// Every restriction the verified history imposed up to `time`, on every binding.
    public static func restrictions(of history: VerifiedHistory, upTo time: Instant) -> [Restriction] {
        Restriction.joinedAcrossRecoveries(
            history.knownBindings.flatMap { binding in
                Restriction.all(
                    history.foldFacts(of: binding), revocations: history.revocations,
                    redemptions: history.redemptions, on: binding, upTo: time)
            })
    }

    /// The statements for `restrictions` (the database refuses restrictions applied before 2020: those are
    /// left out), in the order they took effect, then by content address.
    public static func statements(
        _ contents: LedgerContents, restrictions: [Restriction], config: DSAConfig
    ) -> [Statement] {
        var verdicts: [ContentAddress: Verdict] = [:]
        for verdict in contents.verdicts { verdicts[verdict.ref] = verdict }
        var caseOpened: [VerdictFact.CaseKey: Instant] = [:]
        for verdict in contents.verdicts {
            let key = VerdictFact.CaseKey(authority: verdict.authority, caseId: verdict.caseId)
            caseOpened[key] = min(caseOpened[key] ?? verdict.decidedAt, verdict.decidedAt)
        }
        var path: [ContentAddress: String] = [:]
        for stored in contents.records where stored.record is Verdict { path[stored.address] = stored.path }
        return restrictions.sorted { ($0.startedAt, $0.ban.ref.hex) < ($1.startedAt, $1.ban.ref.hex) }
            .filter { date($0.startedAt) >= earliestApplication }
            .compactMap { restriction in
                guard let verdict = verdicts[restriction.ban.ref] else { return nil }
                return statement(
                    for: restriction, verdict: verdict,
                    caseOpened: caseOpened[restriction.ban.caseKey]
                        ?? verdict.decidedAt, config: config, ledger: contents.descriptor.ledgerId,
                    path: path[verdict.ref])
            }
    }

    private static func statement(
        for restriction: Restriction, verdict: Verdict, caseOpened: Instant, config: DSAConfig, ledger: String,
        path: String?
    ) -> Statement {
        let mapping = config.mapping(of: verdict.classId)
        var fields: [(String, JSONValue)] = []
        // The end: when it really ended, else the expiry still ahead; a ban with neither is a termination.
        let end = restriction.endedAt ?? verdict.banExpires
        fields.append(
            ("decision_account", .string(end == nil ? "DECISION_ACCOUNT_TERMINATED" : "DECISION_ACCOUNT_SUSPENDED")))
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
        fields.append(("application_date", .string(date(restriction.startedAt))))
        if let end { fields.append(("end_date_account_restriction", .string(date(end)))) }
        fields.append(
            ("decision_facts", .string(facts(verdict, restriction: restriction, ledger: ledger, path: path))))
        fields.append(("source_type", .string(config.sourceType)))
        if config.sourceType != "SOURCE_VOLUNTARY" {
            var identity = String.UnicodeScalarView()
            identity.append(contentsOf: verdict.authority.text.unicodeScalars.prefix(DSAVocabulary.maxIdentity))
            fields.append(("source_identity", .string(String(identity))))
        }
        fields.append(("automated_detection", .string(config.automatedDetection)))
        fields.append(("automated_decision", .string(config.automatedDecision)))
        // Unique per statement and never reused: the ban's content address (a ban takes effect at most once).
        fields.append(("puid", .string("onym-" + verdict.ref.hex)))
        return Statement(fields: fields)
    }

    /// The facts and circumstances: who decided what, when it took effect and when it ended, the authority's
    /// reasoning, and where the signed verdict is — cut to the database's 5 000 characters.
    static func facts(_ verdict: Verdict, restriction: Restriction, ledger: String, path: String?) -> String {
        let term = verdict.banExpires.map { "until \($0.rfc3339)" } ?? "with no end date"
        var head =
            "\(verdict.authority), a moderation authority the user designated by signed consent, banned the "
            + "device \(term) in case \(verdict.caseId) (class \(verdict.classId)) on \(verdict.decidedAt.rfc3339); "
            + "the ban took effect on \(restriction.startedAt.rfc3339)"
        if let ended = restriction.endedAt {
            head += " and ended on \(ended.rfc3339) (\(endReason(restriction.endedBy)))"
        }
        head += ". The decision is executed by setting the device's Apple DeviceCheck bits."
        let tail =
            " Signed verdict \(verdict.ref.hex) in the onym ledger \(ledger)" + (path.map { " at \($0)" } ?? "")
            + "; it can be checked with onym-ledger verify and prove."
        return factsText(head: head, reasoning: verdict.reasoning, tail: tail)
    }

    /// What ended a restriction, in words: the fold's label at its end.
    static func endReason(_ label: String?) -> String {
        switch label {
        case EvaluatorRule.expiry.rawValue?: "its term expired"
        case EvaluatorRule.designationRevocation.rawValue?: "the authority's designation was revoked"
        case let label? where label.hasPrefix(GrantRedemption.labelPrefix):
            "the authority's unban grant \(label.dropFirst(GrantRedemption.labelPrefix.count)) was redeemed"
        case let ref? where ContentAddress(hex: ref) != nil: "by verdict \(ref), a reversal or a later decision"
        default: "by the rules (\(label ?? "reconciliation"))"
        }
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
