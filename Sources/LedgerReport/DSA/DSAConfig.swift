public import LedgerFormat

/// What `export dsa` cannot read from the ledger: how the vendor files its statements — the account type, the
/// source of the decision, automation, content type — and, per violation class, the DSA category and the
/// ground. Read from a small JSON file (`--config`); ``defaultText`` is the documented default, which
/// `export dsa --print-config` prints as a starting point.
public struct DSAConfig: Sendable {
    /// One violation class's category and ground.
    public struct ClassMapping: Sendable {
        public let category: String
        public let categorySpecification: [String]
        /// `DECISION_GROUND_ILLEGAL_CONTENT` or `DECISION_GROUND_INCOMPATIBLE_CONTENT`.
        public let decisionGround: String
        /// The legal ground (illegal content) or the terms-and-conditions ground (incompatible content).
        public let ground: String
        public let explanation: String
        /// For incompatible content: whether it is also considered illegal ("Yes"/"No"), if stated.
        public let incompatibleContentIllegal: String?
    }

    public let accountType: String
    public let sourceType: String
    public let automatedDetection: String
    public let automatedDecision: String
    public let contentType: [String]
    public let contentTypeOther: String?
    public let territorialScope: [String]?
    public let classes: [WireString: ClassMapping]
    /// The mapping of a class the file does not list.
    public let otherClasses: ClassMapping

    public func mapping(of classId: WireString) -> ClassMapping { classes[classId] ?? otherClasses }

    /// The default: a private account, decided on an authority's notice by people, content the vendor does
    /// not hold (an end-to-end encrypted message), and the example's violation classes mapped to the DSA
    /// categories that name them.
    public static let defaultText = """
        {
          "account_type": "ACCOUNT_TYPE_PRIVATE",
          "source_type": "SOURCE_TYPE_OTHER_NOTIFICATION",
          "automated_detection": "No",
          "automated_decision": "AUTOMATED_DECISION_NOT_AUTOMATED",
          "content_type": ["CONTENT_TYPE_OTHER"],
          "content_type_other": "Content reported to a designated Onym moderation authority; the interface does not hold it",
          "territorial_scope": null,
          "classes": {
            "csam": {
              "category": "STATEMENT_CATEGORY_PROTECTION_OF_MINORS",
              "category_specification": ["KEYWORD_CHILD_SEXUAL_ABUSE_MATERIAL"],
              "decision_ground": "DECISION_GROUND_ILLEGAL_CONTENT",
              "ground": "Child sexual abuse material (Directive 2011/93/EU and national law)",
              "explanation": "The designated moderation authority found that the reported content is child sexual abuse material."
            },
            "credible-violence": {
              "category": "STATEMENT_CATEGORY_VIOLENCE",
              "category_specification": ["KEYWORD_INCITEMENT_VIOLENCE_HATRED"],
              "decision_ground": "DECISION_GROUND_INCOMPATIBLE_CONTENT",
              "ground": "Terms of service: credible threats of violence",
              "explanation": "The designated moderation authority found that the reported content is a credible threat of violence.",
              "incompatible_content_illegal": "Yes"
            },
            "terror-content": {
              "category": "STATEMENT_CATEGORY_RISK_FOR_PUBLIC_SECURITY",
              "category_specification": ["KEYWORD_TERRORIST_CONTENT"],
              "decision_ground": "DECISION_GROUND_ILLEGAL_CONTENT",
              "ground": "Terrorist content (Regulation (EU) 2021/784)",
              "explanation": "The designated moderation authority found that the reported content is terrorist content."
            },
            "unsolicited-pornography": {
              "category": "STATEMENT_CATEGORY_CYBER_VIOLENCE",
              "category_specification": ["KEYWORD_CYBER_HARASSMENT"],
              "decision_ground": "DECISION_GROUND_INCOMPATIBLE_CONTENT",
              "ground": "Terms of service: sending sexual images to people who did not ask for them",
              "explanation": "The designated moderation authority found that the user sent unsolicited sexual images.",
              "incompatible_content_illegal": "No"
            }
          },
          "other_classes": {
            "category": "STATEMENT_CATEGORY_OTHER_VIOLATION_TC",
            "category_specification": [],
            "decision_ground": "DECISION_GROUND_INCOMPATIBLE_CONTENT",
            "ground": "Terms of service: the violation class the user consented to be moderated under",
            "explanation": "The designated moderation authority found a violation of a class the user consented to."
          }
        }

        """

    public static var standard: DSAConfig {
        // The default is a constant this file's tests parse; it cannot fail at run time.
        try! DSAConfig(json: try CanonicalJSON.parse(Array(defaultText.utf8)))
    }

    /// Reads a config, refusing any value the database would not accept (naming the field).
    public init(json: JSONObject) throws(LedgerFormatError) {
        let reader = FieldReader(json, path: "$")
        try reader.rejectUnknownKeys(allowed: [
            "account_type", "source_type", "automated_detection", "automated_decision", "content_type",
            "content_type_other", "territorial_scope", "classes", "other_classes",
        ])
        accountType = try Self.one(of: DSAVocabulary.accountTypes, try reader.string("account_type"), "account_type")
        sourceType = try Self.one(of: DSAVocabulary.sourceTypes, try reader.string("source_type"), "source_type")
        automatedDetection = try Self.one(
            of: DSAVocabulary.automatedDetections, try reader.string("automated_detection"), "automated_detection")
        automatedDecision = try Self.one(
            of: DSAVocabulary.automatedDecisions, try reader.string("automated_decision"), "automated_decision")
        contentType = try reader.stringArray("content_type").map { (value: String) throws(LedgerFormatError) in
            try Self.one(of: DSAVocabulary.contentTypes, value, "content_type")
        }
        guard !contentType.isEmpty else { throw Self.invalid("content_type", "must list at least one content type") }
        contentTypeOther = try reader.optionalString("content_type_other")
        if contentType.contains("CONTENT_TYPE_OTHER") {
            guard let other = contentTypeOther, !other.isEmpty, other.unicodeScalars.count <= DSAVocabulary.maxGround
            else {
                throw Self.invalid("content_type_other", "is required (1–500 characters) with CONTENT_TYPE_OTHER")
            }
        }
        if case .array = json["territorial_scope"] {
            territorialScope = try reader.stringArray("territorial_scope").map {
                (value: String) throws(LedgerFormatError) in
                try Self.one(of: DSAVocabulary.countries, value, "territorial_scope")
            }
        } else {
            territorialScope = nil
        }
        var classes: [WireString: ClassMapping] = [:]
        for member in try reader.object("classes").object.members {
            guard case .object(let object) = member.value else {
                throw Self.invalid("classes.\(member.key)", "must be an object")
            }
            classes[WireString(member.key)] = try Self.mapping(object, path: "classes.\(member.key)")
        }
        self.classes = classes
        otherClasses = try Self.mapping(try reader.object("other_classes").object, path: "other_classes")
    }

    private static func mapping(_ object: JSONObject, path: String) throws(LedgerFormatError) -> ClassMapping {
        let reader = FieldReader(object, path: "$." + path)
        try reader.rejectUnknownKeys(allowed: [
            "category", "category_specification", "decision_ground", "ground", "explanation",
            "incompatible_content_illegal",
        ])
        let ground = try one(
            of: DSAVocabulary.decisionGrounds, try reader.string("decision_ground"), path + ".decision_ground")
        let groundText = try reader.string("ground")
        let explanation = try reader.string("explanation")
        guard (1...DSAVocabulary.maxGround).contains(groundText.unicodeScalars.count) else {
            throw invalid(path + ".ground", "must be 1–\(DSAVocabulary.maxGround) characters")
        }
        guard (1...DSAVocabulary.maxExplanation).contains(explanation.unicodeScalars.count) else {
            throw invalid(path + ".explanation", "must be 1–\(DSAVocabulary.maxExplanation) characters")
        }
        let illegal = try reader.optionalString("incompatible_content_illegal")
        if let illegal { _ = try one(of: ["Yes", "No"], illegal, path + ".incompatible_content_illegal") }
        let category = try one(of: DSAVocabulary.categories, try reader.string("category"), path + ".category")
        let specification = try reader.stringArray("category_specification").map {
            (value: String) throws(LedgerFormatError) in
            try one(of: DSAVocabulary.keywords, value, path + ".category_specification")
        }
        let specifying = DSAVocabulary.specifications[category] ?? []
        for keyword in specification where !specifying.contains(where: { $0.hasSameBytes(as: keyword) }) {
            throw invalid(
                path + ".category_specification",
                "\"\(keyword)\" does not specify \(category) in the database's taxonomy (its keywords: \(specifying.joined(separator: ", ")))"
            )
        }
        return ClassMapping(
            category: category, categorySpecification: specification,
            decisionGround: ground, ground: groundText, explanation: explanation,
            incompatibleContentIllegal: illegal)
    }

    private static func one(of allowed: [String], _ value: String, _ field: String) throws(LedgerFormatError) -> String
    {
        guard let spelled = allowed.first(where: { $0.hasSameBytes(as: value) }) else {
            throw invalid(
                field,
                "\"\(value)\" is not a value the DSA Transparency Database accepts (one of \(allowed.prefix(6).joined(separator: ", "))\(allowed.count > 6 ? ", …" : ""))"
            )
        }
        return spelled
    }

    private static func invalid(_ field: String, _ reason: String) -> LedgerFormatError {
        LedgerFormatError(.invalidValue, "\(field) \(reason)", path: "$.\(field)")
    }
}
