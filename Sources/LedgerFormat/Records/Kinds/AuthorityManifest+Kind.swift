/// An authority's manifest as a stored kind: its exact published bytes, addressed by their hash; its
/// detached signature is a file of its own (``DetachedManifestSignature``).
extension AuthorityManifest: StoredRecord {
    public static let kindName = "manifest"
    public static let code: UInt8 = 1
    public static let folder = "manifests"
    public static let tellingFields = ["violationClasses"]
    /// A manifest is stored and hashed as the exact bytes its authority published.
    public convenience init(storedBytes: [UInt8], json: JSONObject) throws(LedgerFormatError) {
        try self.init(rawBytes: storedBytes)
    }
    public var storedBytes: [UInt8] { rawBytes }
    public var address: ContentAddress { hash }
}

/// A manifest read: its authority, seat, operator key, profile, validity and appellate forum, the
/// recourse addresses it states (as text: a reading links only inside the ledger), each class's
/// definition and lawful-reporting text, and the table of the class terms users consented to.
extension AuthorityManifest {
    public var reading: RecordFacts {
        let text = { (field: String) in self.json[field]?.stringValue }
        var facts: [RecordFacts.Fact] = [
            .init("Authority", .text(componentId.text)),
            .init("Seat", .text(text("seat"))),
            .init("Operator key (signs its verdicts)", text("operator").map { .key($0) } ?? .absent(because: nil)),
            .init("Moderation profile", .text(text("moderationProfileId"))),
            .init("Valid until", .time(validUntil)),
            .init("Appeals go to", appellateValue),
        ]
        let recourse: [(String, String)] = [
            ("newHolderAppeal", "Appeal by a device's new holder"), ("evidenceRules", "Evidence rules"),
            ("reputationPolicy", "Reputation policy"), ("confidentiality", "Confidentiality"),
            ("statistics", "Statistics"),
        ]
        for (field, label) in recourse {
            if let value = text(field) { facts.append(.init(label, .text(value))) }
        }
        for (field, label) in [("definition", "Class definitions"), ("lawfulReporting", "Lawful reporting")] {
            let texts = classTexts(field: field)
            let lines = classes.compactMap { item in
                texts[item.classId].map {
                    RecordFacts.Value.phrase([.text(item.classId.text), .words(": "), .text($0)])
                }
            }
            if !lines.isEmpty { facts.append(.init(label, .lines(lines))) }
        }
        return RecordFacts(title: "Authority manifest of \(componentId)", facts: facts, tables: [classTable])
    }

    /// The manifest's violation classes and their terms, as the users consented to them.
    public var classTable: RecordFacts.Table {
        RecordFacts.Table(
            caption: "Violation classes the users consented to",
            headers: ["Class", "Response window", "Decision deadline", "Appeal window", "Ban term", "Appeal effect"],
            rows: classes.map { item in
                [
                    .text(item.classId.text), .days(item.responseWindowDays), .days(item.decisionDeadlineDays),
                    .days(item.appealWindowDays), banTermValue(item.banTerm), .words(item.appealEffect.rawValue),
                ]
            })
    }

    private func banTermValue(_ term: BanTerm) -> RecordFacts.Value {
        switch term {
        case .days(let days): .days(days)
        case .permanent: .words(term.words)
        }
    }

    private var appellateValue: RecordFacts.Value {
        switch appellate {
        case nil: .absent(because: "the manifest names no appellate forum")
        case "self": .phrase([.words("the authority itself ("), .text("self"), .words(")")])
        case let forum?: .text(forum.text)
        }
    }

    /// A class field the parsed manifest does not keep (it is descriptive, not a rule), by class id.
    private func classTexts(field: String) -> [WireString: String] {
        guard case .array(let items) = json["violationClasses"] else { return [:] }
        var texts: [WireString: String] = [:]
        for case .object(let item) in items {
            if let id = item["classId"]?.stringValue, let value = item[field]?.stringValue {
                texts[WireString(id)] = value
            }
        }
        return texts
    }
}

extension BanTerm {
    /// The term in words: `30 days`, `permanent`.
    public var words: String {
        switch self {
        case .days(let days): "\(days) days"
        case .permanent: "permanent"
        }
    }
}
