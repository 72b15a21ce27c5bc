/// The records behind designation revocation (onym-wire §9; profile §6 item 4, §8.11), which the
/// reference does not implement and onym-ledger defines (docs/FORMAT.md, schemas/):
///
/// * ``StatusAttempt`` — the interface's signed attempt to reach an authority, and whether it was answered;
/// * ``CompromiseReport`` — an authority's signed report of its own compromise, with the compromise time;
/// * ``RevocationDetermination`` — the interface's signed determination that revokes the designation,
///   citing the triggers that justify it.
///
/// Each is signed Ed25519 over its canonical bytes without `signature` (the reference's convention),
/// and stored under its content address: SHA-256 of those same bytes.
public protocol SignedLedgerRecord: Sendable {
    var json: JSONObject { get }
    var signature: [UInt8] { get }
}

extension SignedLedgerRecord {
    public var signingBytes: [UInt8] { CanonicalJSON.signingBytes(of: json, omitting: "signature") }
    public var ref: ContentAddress { SHA256.hash(signingBytes) }

    /// Whether the signature verifies under one of `keys`.
    public func signatureStatus(keys: [Ed25519.PublicKey]) -> SignatureStatus {
        guard !keys.isEmpty else { return .keyUnknown }
        let bytes = signingBytes
        return keys.contains { $0.isValidSignature(signature, for: bytes) } ? .valid : .invalid
    }
}

/// One signed status attempt of the interface to an authority (signed with the interface's
/// countersigning key for that authority).
public final class StatusAttempt: SignedLedgerRecord, Equatable {
    public static let fields: Set<String> = [
        "attemptVersion", "interface", "authority", "attemptedAt", "answered",
        "answeredAt", "signature",
    ]

    public let json: JSONObject
    public let interface: WireString
    public let authority: WireString
    public let attemptedAt: Instant
    public let answered: Bool
    public let answeredAt: Instant?
    public let signature: [UInt8]

    public init(json: JSONObject) throws(LedgerFormatError) {
        let reader = FieldReader(json)
        try reader.rejectUnknownKeys(allowed: Self.fields)
        try reader.version("attemptVersion")
        interface = try reader.componentId("interface")
        authority = try reader.componentId("authority")
        attemptedAt = try reader.timestamp("attemptedAt")
        answered = try reader.bool("answered")
        answeredAt = try reader.optionalTimestamp("answeredAt")
        guard answered == (answeredAt != nil) else {
            throw LedgerFormatError(
                .invalidValue, "answeredAt is present exactly when answered is true", path: "$.answeredAt")
        }
        signature = try SignatureEncoding.decode(try reader.string("signature"), field: "$.signature")
        self.json = json
    }
}

/// An authority's signed report of its own compromise (signed by its operator key, the key whose
/// compromise it reports — so whoever holds that key can burn it, and no one else can).
public final class CompromiseReport: SignedLedgerRecord {
    public static let fields: Set<String> = [
        "compromiseReportVersion", "authority", "manifestHash", "compromisedAt",
        "reportedAt", "signature",
    ]

    public let json: JSONObject
    public let authority: WireString
    /// The manifest whose `operator` key signs (and is reported compromised).
    public let manifestHash: ContentAddress
    public let compromisedAt: Instant
    public let reportedAt: Instant
    public let signature: [UInt8]

    public init(json: JSONObject) throws(LedgerFormatError) {
        let reader = FieldReader(json)
        try reader.rejectUnknownKeys(allowed: Self.fields)
        try reader.version("compromiseReportVersion")
        authority = try reader.componentId("authority")
        manifestHash = try reader.contentAddress("manifestHash")
        compromisedAt = try reader.timestamp("compromisedAt")
        reportedAt = try reader.timestamp("reportedAt")
        guard compromisedAt <= reportedAt else {
            throw LedgerFormatError(
                .invalidValue, "a compromise is reported after it happened", path: "$.compromisedAt")
        }
        signature = try SignatureEncoding.decode(try reader.string("signature"), field: "$.signature")
        self.json = json
    }
}

/// The interface's signed determination revoking an authority's designation.
public final class RevocationDetermination: SignedLedgerRecord {
    public enum Trigger: String, Sendable {
        /// The authority reported its own compromise; `evidence` names the report.
        case authorityCompromise = "authority-compromise"
        /// Status attempts went unanswered for the unreachability window; `evidence` names them.
        case unreachable
    }

    public static let fields: Set<String> = [
        "revocationVersion", "interface", "authority", "trigger", "effectiveAt",
        "determinedAt", "evidence", "signature",
    ]

    public let json: JSONObject
    public let interface: WireString
    public let authority: WireString
    public let trigger: Trigger
    public let effectiveAt: Instant
    public let determinedAt: Instant
    public let evidence: [ContentAddress]
    public let signature: [UInt8]

    public init(json: JSONObject) throws(LedgerFormatError) {
        let reader = FieldReader(json)
        try reader.rejectUnknownKeys(allowed: Self.fields)
        try reader.version("revocationVersion")
        interface = try reader.componentId("interface")
        authority = try reader.componentId("authority")
        let triggerText = try reader.string("trigger")
        guard let trigger = Trigger(rawValue: triggerText) else {
            throw LedgerFormatError(
                .invalidValue, "trigger must be authority-compromise or unreachable", path: "$.trigger")
        }
        self.trigger = trigger
        effectiveAt = try reader.timestamp("effectiveAt")
        determinedAt = try reader.timestamp("determinedAt")
        guard effectiveAt <= determinedAt else {
            throw LedgerFormatError(
                .invalidValue, "a revocation cannot take effect after it is determined", path: "$.effectiveAt")
        }
        var evidence: [ContentAddress] = []
        for (index, text) in try reader.stringArray("evidence").enumerated() {
            evidence.append(try ContentAddress.parse(text, field: "$.evidence[\(index)]"))
        }
        guard !evidence.isEmpty else {
            throw LedgerFormatError(.invalidValue, "a revocation cites at least one trigger record", path: "$.evidence")
        }
        self.evidence = evidence
        signature = try SignatureEncoding.decode(try reader.string("signature"), field: "$.signature")
        self.json = json
    }

    public var effect: DesignationRevocation.Effect {
        DesignationRevocation.Effect(authority: authority, effectiveAt: effectiveAt, determinedAt: determinedAt)
    }
}

extension StatusAttempt {
    /// Two attempts are equal when their objects are: every field is read from the object.
    public static func == (left: StatusAttempt, right: StatusAttempt) -> Bool {
        left === right || left.json == right.json
    }
}
