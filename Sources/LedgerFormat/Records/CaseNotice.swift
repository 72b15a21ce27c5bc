/// A case notice (reference §3.5): the gate's projection of an open-case verdict. No separately
/// signed notice exists; `signature` is the open-case verdict's own signature.
public struct CaseNotice: Sendable, Equatable {
    public static let fields: Set<String> = [
        "noticeVersion", "caseId", "authority", "accused", "mandateRef", "classId", "evidenceSummary",
        "responseDeadline", "decisionDeadline", "signature",
    ]

    public let caseId: String
    public let authority: String
    public let accused: String
    public let mandateRef: String
    public let classId: String
    public let evidenceSummary: String
    public let responseDeadline: String
    public let decisionDeadline: String
    public let signature: String

    public init(
        caseId: String, authority: String, accused: String, mandateRef: String, classId: String,
        evidenceSummary: String, responseDeadline: String, decisionDeadline: String, signature: String
    ) {
        self.caseId = caseId
        self.authority = authority
        self.accused = accused
        self.mandateRef = mandateRef
        self.classId = classId
        self.evidenceSummary = evidenceSummary
        self.responseDeadline = responseDeadline
        self.decisionDeadline = decisionDeadline
        self.signature = signature
    }

    /// The reference projection (`enforcement.rs::open_case_notices`): accused = first accused key,
    /// evidenceSummary = reasoning, deadlines = decidedAt + the class's windows.
    public init(projecting verdict: Verdict, terms: AuthorityManifest.ViolationClass) {
        self.init(
            caseId: verdict.caseId.text, authority: verdict.authority.text,
            accused: verdict.accusedKeys.first?.text ?? "",
            mandateRef: verdict.mandateRef.hex, classId: verdict.classId.text, evidenceSummary: verdict.reasoning,
            responseDeadline: verdict.decidedAt.adding(days: terms.responseWindowDays).rfc3339,
            decisionDeadline: verdict.decidedAt.adding(days: terms.decisionDeadlineDays).rfc3339,
            signature: Base64.encode(verdict.signature))
    }

    public init(json: JSONObject, path: String = "$") throws(LedgerFormatError) {
        let reader = FieldReader(json, path: path)
        try reader.rejectUnknownKeys(allowed: Self.fields)
        if reader.has("noticeVersion") { try reader.version("noticeVersion") }
        caseId = try reader.string("caseId")
        authority = try reader.string("authority")
        accused = try reader.string("accused")
        mandateRef = try reader.string("mandateRef")
        classId = try reader.string("classId")
        evidenceSummary = try reader.string("evidenceSummary")
        responseDeadline = try reader.string("responseDeadline")
        decisionDeadline = try reader.string("decisionDeadline")
        signature = try reader.string("signature")
    }

    public var json: JSONObject {
        JSONObject([
            ("noticeVersion", .integer(1)), ("caseId", .string(caseId)), ("authority", .string(authority)),
            ("accused", .string(accused)), ("mandateRef", .string(mandateRef)), ("classId", .string(classId)),
            ("evidenceSummary", .string(evidenceSummary)), ("responseDeadline", .string(responseDeadline)),
            ("decisionDeadline", .string(decisionDeadline)), ("signature", .string(signature)),
        ])
    }
}
