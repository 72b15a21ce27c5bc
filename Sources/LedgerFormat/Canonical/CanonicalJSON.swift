/// The ledger's canonical JSON: strict parsing, the reference encoder, and signing bytes.
///
/// Reference §1.1 (`apple/src/canonical.rs::canonical_bytes`): parse the received bytes, drop the
/// named key structurally at the top level only, re-serialize sorted and compact. A stored record's
/// bytes must *be* canonical; the ledger rejects, it never normalizes (docs/FORMAT.md, "Canonical JSON").
///
/// Non-ASCII object keys are accepted and sorted by UTF-8 bytes, which is Unicode scalar order and
/// what serde_json does; duplicate detection compares bytes, never Swift's canonical equivalence
/// (docs/DECISIONS.md "Non-ASCII keys").
public enum CanonicalJSON {
    /// Parses one top-level JSON object under the strict rules and ``Limits``.
    /// - Throws: ``LedgerFormatError`` with a code, the byte offset and a reason.
    public static func parse(_ bytes: some Collection<UInt8>) throws(LedgerFormatError) -> JSONObject {
        try JSONParser.parseObject(bytes)
    }

    /// Parses with other limits (``ParseLimits/localState`` for the tool's own files only).
    public static func parse(_ bytes: some Collection<UInt8>, limits: ParseLimits) throws(LedgerFormatError)
        -> JSONObject
    {
        try JSONParser.parseObject(bytes, limits: limits)
    }

    /// Parses `bytes` and gives their canonical encoding when they are it — recognized by the parser as it
    /// reads them, so nothing is encoded — and nil when they are not. The recognition is held to the rule's
    /// own test, encoding the object and comparing (``CanonicalEncoding/isIdentical(to:)``), which a caller
    /// may still apply to what is not recognized.
    public static func parseNotingCanonicalForm(_ bytes: [UInt8]) throws(LedgerFormatError)
        -> (object: JSONObject, encoding: CanonicalEncoding?)
    {
        let parsed = try JSONParser.parseNotingCanonicalForm(bytes)
        let encoding = parsed.canonicalMemberEnds.map {
            CanonicalEncoding(canonicalBytes: bytes, of: parsed.object, memberEnds: $0)
        }
        return (parsed.object, encoding)
    }

    /// The canonical bytes of an object.
    public static func encode(_ object: JSONObject) -> [UInt8] {
        var encoder = CanonicalEncoder()
        encoder.write(object)
        return encoder.output
    }

    /// The canonical bytes of any value (used for nested values such as a verdict inside a submission).
    public static func encode(_ value: JSONValue) -> [UInt8] {
        var encoder = CanonicalEncoder()
        encoder.write(value)
        return encoder.output
    }

    /// True when `bytes` parse and are exactly their own canonical encoding.
    public static func isCanonical(_ bytes: some Collection<UInt8>) -> Bool {
        guard let object = try? parse(bytes) else { return false }
        return encode(object).elementsEqual(bytes)
    }

    /// Parses `bytes` and requires them to be canonical.
    /// - Throws: the parse error, or ``LedgerFormatError/Code/nonCanonical`` naming the first differing byte.
    public static func parseCanonical(_ bytes: some Collection<UInt8>) throws(LedgerFormatError) -> JSONObject {
        let object = try parse(bytes)
        let canonical = encode(object)
        if !canonical.elementsEqual(bytes) {
            let offset =
                zip(canonical, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(canonical.count, bytes.count)
            throw LedgerFormatError(
                .nonCanonical,
                "bytes are valid JSON but not canonical (sorted keys, compact, reference escapes); first difference",
                offset: offset)
        }
        return object
    }

    /// The signing bytes of an object: its canonical form with one top-level key removed
    /// (reference §1.1 step 2 — structurally, never by string surgery).
    public static func signingBytes(of object: JSONObject, omitting key: String) -> [UInt8] {
        var unsigned = object
        unsigned.remove(key)
        return encode(unsigned)
    }
}
