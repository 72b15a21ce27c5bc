/// An authority manifest (reference §3.2), kept as the **exact bytes** the user consented to:
/// `manifestHash` is SHA-256 over those bytes, whitespace included, never a canonical form.
public final class AuthorityManifest: Sendable, Equatable {
    public enum AppealEffect: String, Sendable {
        case suspensive
        case nonSuspensive = "non-suspensive"
    }

    /// One violation class and its terms (`types.rs::ViolationClass`).
    public struct ViolationClass: Sendable {
        public let classId: WireString
        public let responseWindowDays: Int64
        public let decisionDeadlineDays: Int64
        public let appealWindowDays: Int64
        public let banTerm: BanTerm
        public let appealEffect: AppealEffect
    }

    public let rawBytes: [UInt8]
    public let json: JSONObject
    /// SHA-256 of ``rawBytes``.
    public let hash: ContentAddress
    public let componentId: WireString
    public let operatorKey: Ed25519.PublicKey
    public let classes: [ViolationClass]
    public let validUntil: Instant
    /// `self` or the `onym:component:` of an external appellate forum (the successor-of-record
    /// under designation revocation, onym-wire.md §9).
    public let appellate: WireString?
    public let newHolderAppeal: String?

    public init(rawBytes: [UInt8]) throws(LedgerFormatError) {
        let json = try CanonicalJSON.parse(rawBytes)
        let fields = FieldReader(json)
        try fields.version("version")
        componentId = try fields.componentId("componentId")
        _ = try fields.string("seat")
        operatorKey = try fields.onymKey("operator")
        _ = try fields.string("moderationProfileId")
        validUntil = try fields.timestamp("validUntil")
        appellate = try fields.optionalWireString("appellate")
        newHolderAppeal = try fields.optionalString("newHolderAppeal")
        var classes: [ViolationClass] = []
        var seen: Set<WireString> = []
        for (index, element) in try fields.array("violationClasses").enumerated() {
            let path = "$.violationClasses[\(index)]"
            guard case .object(let object) = element else {
                throw LedgerFormatError(.wrongType, "expected an object, found \(element.typeName)", path: path)
            }
            let term = FieldReader(object, path: path)
            let classId = try term.nonEmptyWireString("classId")
            guard seen.insert(classId).inserted else {
                throw LedgerFormatError(.invalidValue, "class \"\(classId)\" is declared twice", path: path)
            }
            let effectText = try term.string("appealEffect")
            guard let effect = AppealEffect(rawValue: effectText) else {
                throw LedgerFormatError(
                    .invalidValue, "appealEffect must be suspensive or non-suspensive",
                    path: term.fieldPath("appealEffect"))
            }
            classes.append(
                ViolationClass(
                    classId: classId,
                    responseWindowDays: try DayDuration.parseDays(
                        try term.string("responseWindow"),
                        field: term.fieldPath("responseWindow")),
                    decisionDeadlineDays: try DayDuration.parseDays(
                        try term.string("decisionDeadline"),
                        field: term.fieldPath("decisionDeadline")),
                    appealWindowDays: try DayDuration.parseDays(
                        try term.string("appealWindow"),
                        field: term.fieldPath("appealWindow")),
                    banTerm: try BanTerm.parse(try term.string("banTerm"), field: term.fieldPath("banTerm")),
                    appealEffect: effect))
        }
        self.classes = classes
        self.rawBytes = rawBytes
        self.json = json
        self.hash = SHA256.hash(rawBytes)
    }

    public func violationClass(_ classId: WireString) -> ViolationClass? {
        classes.first { $0.classId == classId }
    }

    /// Whether a detached signature (64 raw bytes, or base64 text of them — reference §2 table)
    /// verifies over the exact manifest bytes under the manifest's own operator key.
    public func detachedSignatureStatus(_ signatureFile: [UInt8]) -> SignatureStatus {
        let signature: [UInt8]
        if signatureFile.count == 64 {
            signature = signatureFile
        } else {
            let text = String(decoding: signatureFile, as: UTF8.self).trimmingWhitespace
            guard let decoded = Base64.decode(String(text)), decoded.count == 64 else { return .invalid }
            signature = decoded
        }
        return operatorKey.isValidSignature(signature, for: rawBytes) ? .valid : .invalid
    }
}

extension AuthorityManifest {
    /// Two manifests are equal when their bytes are: everything else is read from them.
    public static func == (left: AuthorityManifest, right: AuthorityManifest) -> Bool {
        left.rawBytes == right.rawBytes
    }
}
