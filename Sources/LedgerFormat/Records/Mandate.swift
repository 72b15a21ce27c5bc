/// A moderation mandate (`onym-moderation-mandate-v1`, reference §3.3): the user's consent to an
/// authority's manifest for a device binding, signed by the user and countersigned by the interface.
public final class Mandate: Sendable {
    /// Reference §1.1: mandates omit `signatures` from their signing bytes.
    public static let signatureKey = "signatures"

    public let json: JSONObject
    /// `mandateRef`: SHA-256 of the canonical bytes without `signatures` (stable across countersigning).
    public let ref: ContentAddress
    public let user: Ed25519.PublicKey
    public let userKey: WireString
    public let interface: WireString
    public let authority: WireString
    public let manifestHash: ContentAddress
    public let classes: [WireString]
    public let deviceBinding: WireString
    public let acceptedAt: Instant
    /// Decoded signatures in wire order: `[0]` the user's, `[1]` the interface countersignature.
    public let signatures: [[UInt8]]

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
        try fields.version("mandateVersion")
        userKey = try fields.wireString("user")
        user = try fields.onymKey("user")
        interface = try fields.componentId("interface")
        authority = try fields.componentId("authority")
        manifestHash = try fields.contentAddress("manifestHash")
        classes = try fields.wireStringArray("classes")
        guard !classes.isEmpty else {
            throw LedgerFormatError(.invalidValue, "a mandate names at least one class", path: "$.classes")
        }
        guard Set(classes).count == classes.count else {
            throw LedgerFormatError(.invalidValue, "classes must not repeat", path: "$.classes")
        }
        deviceBinding = try fields.nonEmptyWireString("deviceBinding")
        acceptedAt = try fields.timestamp("acceptedAt")
        let encoded = fields.has(Self.signatureKey) ? try fields.stringArray(Self.signatureKey) : []
        guard encoded.count <= 2 else {
            throw LedgerFormatError(
                .invalidValue, "a mandate carries at most two signatures (user, interface)",
                path: "$.signatures")
        }
        var decoded: [[UInt8]] = []
        for (index, text) in encoded.enumerated() {
            decoded.append(try SignatureEncoding.decode(text, field: "$.signatures[\(index)]"))
        }
        signatures = decoded
        self.json = json
        self.signingBytes =
            encoding?.omitting(Self.signatureKey) ?? CanonicalJSON.signingBytes(of: json, omitting: Self.signatureKey)
        self.ref = SHA256.hash(signingBytes)
    }

    /// The bytes both signatures cover (reference §2: the same bytes, not over the user signature).
    public let signingBytes: [UInt8]

    /// Whether `signatures[0]` verifies under the mandate's own user key.
    public var userSignatureStatus: SignatureStatus {
        guard let signature = signatures.first else { return .missing }
        return user.isValidSignature(signature, for: signingBytes) ? .valid : .invalid
    }

    /// Whether `signatures[1]` verifies under one of the candidate interface keys.
    public func interfaceSignatureStatus(candidates: [Ed25519.PublicKey]) -> SignatureStatus {
        guard signatures.count >= 2 else { return .missing }
        guard !candidates.isEmpty else { return .keyUnknown }
        let bytes = signingBytes
        return candidates.contains { $0.isValidSignature(signatures[1], for: bytes) } ? .valid : .invalid
    }
}

/// The outcome of checking one record signature.
public enum SignatureStatus: String, Sendable, Equatable {
    case valid
    case invalid
    /// The verifying key is not known to the caller (reported, not a finding).
    case keyUnknown = "key-unknown"
    /// The record carries no such signature.
    case missing
}
