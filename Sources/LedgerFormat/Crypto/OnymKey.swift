/// `onym:key:<hex>` key references (reference §2, `util.rs::key_reference`).
///
/// The ledger accepts exactly 64 lowercase hex digits (iOS's `AuthorityKey` rule, and what Rust's
/// `key_bytes_from_reference` plus its 32-byte length check accept in practice, minus uppercase —
/// the reference only ever produces lowercase, and a second spelling of one key would give one
/// identity two forms in a content-addressed store).
public enum OnymKey {
    public static let prefix = "onym:key:"

    /// Parses a key reference, throwing an error that names the field.
    public static func parse(_ text: String, field: String = "$") throws(LedgerFormatError) -> Ed25519.PublicKey {
        guard text.hasPrefix(prefix) else {
            throw LedgerFormatError(.invalidKey, "a key reference must start with \"onym:key:\"", path: field)
        }
        let hex = String(text.dropFirst(prefix.count))
        guard hex.utf8.count == 64, let bytes = Hex.decode(hex), let key = Ed25519.PublicKey(rawRepresentation: bytes)
        else {
            throw LedgerFormatError(.invalidKey, "a key reference needs exactly 64 lowercase hex digits", path: field)
        }
        return key
    }
}

/// Padded standard base64 signatures of 64 bytes (reference §2).
public enum SignatureEncoding {
    public static func decode(_ text: String, field: String) throws(LedgerFormatError) -> [UInt8] {
        guard let bytes = Base64.decode(text) else {
            throw LedgerFormatError(.invalidBase64, "a signature must be padded standard base64", path: field)
        }
        guard bytes.count == 64 else {
            throw LedgerFormatError(
                .invalidSignature, "a signature is 64 bytes, this one is \(bytes.count)", path: field)
        }
        return bytes
    }
}
