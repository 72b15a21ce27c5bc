public import LedgerFormat

/// Recomputes the interface countersignature the backend returned for a mandate (onym-wire §3.9): the
/// store keeps only the request body (`mandates.raw`, the user's signature), and the backend's answer
/// `{"signature": …}` is the Ed25519 signature of the per-authority key over the mandate's signing bytes.
/// Ed25519 is deterministic (RFC 8032), so the same key over the same bytes gives the same signature.
public struct InterfaceCountersigner: Sendable {
    /// The interface root seed (`MODERATION_INTERFACE_SIGNING_SEED`, 32 bytes).
    let root: [UInt8]
    /// Per-authority epochs (`MODERATION_INTERFACE_KEY_EPOCHS`); an authority not named uses epoch 0, the
    /// root itself (onym-wire §2.2).
    let epochs: [WireString: UInt32]

    public init(root: [UInt8], epochs: [WireString: UInt32] = [:]) {
        precondition(root.count == 32, "the interface root seed is 32 bytes")
        self.root = root
        self.epochs = epochs
    }

    /// Reads the seed the way the backend's configuration holds it: 64 hex digits (surrounding whitespace
    /// ignored). Nil for anything else.
    public static func seed(fromFileText text: String) -> [UInt8]? {
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard trimmed.utf8.count == 64, let bytes = Hex.decode(trimmed, lowercaseOnly: false), bytes.count == 32
        else { return nil }
        return bytes
    }

    /// Parses `MODERATION_INTERFACE_KEY_EPOCHS`: `onym:component:a=1,onym:component:b=2`, each item split on
    /// its last `=` (component ids contain `:`). A failure names the offending item. Split on bytes, as Rust's
    /// `split(',')` is: a combining mark after `,` or `=` does not hide it.
    public static func epochs(_ text: String) -> Result<[WireString: UInt32], MalformedEpoch> {
        var epochs: [WireString: UInt32] = [:]
        for item in text.unicodeScalars.split(separator: ",", omittingEmptySubsequences: true) {
            guard let equals = item.lastIndex(of: "="),
                let epoch = UInt32(String(Substring(item[item.index(after: equals)...]))),
                !item[..<equals].isEmpty
            else { return .failure(MalformedEpoch(item: String(Substring(item)))) }
            epochs[WireString(String(Substring(item[..<equals])))] = epoch
        }
        return .success(epochs)
    }

    /// An item of `MODERATION_INTERFACE_KEY_EPOCHS` that is not `AUTHORITY=EPOCH`.
    public struct MalformedEpoch: Error {
        public let item: String
    }

    /// The key that countersigns mandates for `authority`.
    public func key(for authority: WireString) -> Ed25519.PrivateKey {
        InterfaceKeyDerivation.privateKey(root: root, authority: authority.text, epoch: epochs[authority] ?? 0)
    }

    /// The mandate as the client holds it after countersigning: `raw` (one signature, the user's) with the
    /// interface signature appended as `signatures[1]`.
    public func countersigned(_ raw: [UInt8]) throws(LedgerFormatError) -> Mandate {
        var json = try CanonicalJSON.parse(raw)
        let request = try Mandate(json: json)
        guard request.signatures.count == 1, case .array(let signatures)? = json[Mandate.signatureKey] else {
            throw LedgerFormatError(
                .invalidValue,
                "the countersign request body carries exactly one signature, the user's (onym-wire §3.9); "
                    + "it has \(request.signatures.count)",
                path: "$.signatures")
        }
        let signature = key(for: request.authority).signature(for: request.signingBytes)
        json.set(Mandate.signatureKey, .array(signatures + [.string(Base64.encode(signature))]))
        return try Mandate(json: json)
    }
}
