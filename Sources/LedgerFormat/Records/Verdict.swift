/// A signed verdict (`onym-moderation-verdict-v1`, reference §3.4).
public final class Verdict: Sendable {
    /// Reference §1.1: verdicts omit `signature` from their signing bytes.
    public static let signatureKey = "signature"

    public enum Disposition: String, Sendable, CaseIterable {
        case openCase = "open-case"
        case dismiss
        case ban

        /// Reference §4.2: at equal `decidedAt`, open-case < ban < dismiss (terminal precedence).
        public var tieRank: Int {
            switch self {
            case .openCase: 0
            case .ban: 1
            case .dismiss: 2
            }
        }
    }

    public struct Marks: Equatable, Sendable {
        public let caseOpen: Bool
        public let banned: Bool
        public init(caseOpen: Bool, banned: Bool) {
            self.caseOpen = caseOpen
            self.banned = banned
        }
    }

    public let json: JSONObject
    /// `verdictRef`: SHA-256 of the canonical bytes without `signature`.
    public let ref: ContentAddress
    public let caseId: WireString
    public let authority: WireString
    public let mandateRef: ContentAddress
    public let accusedKeys: [WireString]
    public let deviceBinding: WireString
    public let classId: WireString
    public let disposition: Disposition
    public let marks: Marks
    public let reasoning: String
    public let decidedAt: Instant
    public let appealDeadline: Instant?
    public let executeAfter: Instant?
    public let banExpires: Instant?
    /// Spec draft 0.3's signed open-case deadline; absent in current reference output.
    public let decisionDeadline: Instant?
    public let appealUrl: String?
    public let newHolderUrl: String?
    public let authorityContact: String?
    public let isFinal: Bool
    public let signature: [UInt8]

    public convenience init(json: JSONObject) throws(LedgerFormatError) {
        try self.init(json: json, encoding: nil)
    }

    public convenience init(
        storedBytes: [UInt8], json: JSONObject, encoding: CanonicalEncoding
    ) throws(LedgerFormatError) {
        try self.init(json: json, encoding: encoding)
    }

    /// Decodes `json`; its signing bytes are cut from `encoding` when the caller has it.
    private init(json: JSONObject, encoding: CanonicalEncoding?) throws(LedgerFormatError) {
        let fields = FieldReader(json)
        try fields.version("verdictVersion")
        caseId = try fields.nonEmptyWireString("caseId")
        authority = try fields.componentId("authority")
        mandateRef = try fields.contentAddress("mandateRef")
        accusedKeys = try fields.wireStringArray("accusedKeys")
        deviceBinding = try fields.nonEmptyWireString("deviceBinding")
        classId = try fields.nonEmptyWireString("classId")
        let dispositionText = try fields.string("disposition")
        guard let disposition = Disposition(rawValue: dispositionText) else {
            throw LedgerFormatError(
                .invalidValue, "disposition must be open-case, dismiss or ban", path: "$.disposition")
        }
        self.disposition = disposition
        let marksReader = try fields.object("marks")
        try marksReader.rejectUnknownKeys(allowed: ["case-open", "banned"])
        marks = Marks(caseOpen: try marksReader.bool("case-open"), banned: try marksReader.bool("banned"))
        reasoning = try fields.string("reasoning")
        decidedAt = try fields.timestamp("decidedAt")
        appealDeadline = try fields.optionalTimestamp("appealDeadline")
        executeAfter = try fields.optionalTimestamp("executeAfter")
        banExpires = try fields.optionalTimestamp("banExpires")
        decisionDeadline = try fields.optionalTimestamp("decisionDeadline")
        appealUrl = try fields.optionalString("appealUrl")
        newHolderUrl = try fields.optionalString("newHolderUrl")
        authorityContact = try fields.optionalString("authorityContact")
        isFinal = try fields.bool("final")
        signature = try SignatureEncoding.decode(try fields.string(Self.signatureKey), field: "$.signature")
        self.json = json
        self.signingBytes =
            encoding?.omitting(Self.signatureKey) ?? CanonicalJSON.signingBytes(of: json, omitting: Self.signatureKey)
        self.ref = SHA256.hash(signingBytes)
    }

    /// The bytes the operator signature covers (canonical form without `signature`).
    public let signingBytes: [UInt8]

    /// Whether the operator signature verifies under `operatorKey` (strict Ed25519).
    public func signatureStatus(operatorKey: Ed25519.PublicKey?) -> SignatureStatus {
        guard let operatorKey else { return .keyUnknown }
        return operatorKey.isValidSignature(signature, for: signingBytes) ? .valid : .invalid
    }
}
