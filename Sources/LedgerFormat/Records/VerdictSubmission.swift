/// What an authority posts to the interface's `POST /v1/verdicts` (reference §3.6): the signed
/// verdict and the exact bytes of the manifest the mandate pinned, as standard base64.
public struct VerdictSubmission: Sendable {
    public let verdict: Verdict
    public let consentedManifestBytes: [UInt8]

    public init(json: JSONObject) throws(LedgerFormatError) {
        let fields = FieldReader(json)
        try fields.rejectUnknownKeys(allowed: ["verdict", "consentedManifest"])
        let verdictObject = try fields.object("verdict").object
        do {
            verdict = try Verdict(json: verdictObject)
        } catch {
            throw error.nested(under: "$.verdict")
        }
        guard let bytes = Base64.decode(try fields.string("consentedManifest")) else {
            throw LedgerFormatError(
                .invalidBase64, "consentedManifest must be padded standard base64",
                path: "$.consentedManifest")
        }
        consentedManifestBytes = bytes
    }

    /// The consented manifest, decoded (its hash is over ``consentedManifestBytes``).
    public func manifest() throws(LedgerFormatError) -> AuthorityManifest {
        do {
            return try AuthorityManifest(rawBytes: consentedManifestBytes)
        } catch {
            throw error.nested(under: "$.consentedManifest")
        }
    }
}
