/// Every size limit of the format layer, in one place.
///
/// Limits are checked before work is spent: the byte size before parsing, depth before descending,
/// string and member counts as they grow. The values are far above any record the reference
/// services produce (a mandate is ~600 bytes, the reference manifest ~1.8 KB) and far below what
/// would let one file cost an auditor real memory or time.
public enum Limits {
    /// Largest record file, in bytes (manifests are stored as exact bytes and are the largest kind).
    public static let maxRecordBytes = 256 * 1024
    /// Deepest nesting of arrays and objects; the parser recurses at most this deep.
    public static let maxDepth = 32
    /// Longest string value or key, in UTF-8 bytes after unescaping.
    public static let maxStringBytes = 64 * 1024
    /// Most members in one object or elements in one array.
    public static let maxMembers = 4096
    /// Largest integer magnitude (2^53 − 1), the range every JSON implementation represents exactly.
    public static let maxSafeInteger: Int64 = 9_007_199_254_740_991
}

/// The limits one parse applies: ``record`` for everything a ledger stores or receives; larger ones
/// only for the tool's own local state (the verifier's checkpoint), never for untrusted input.
public struct ParseLimits: Sendable {
    public var maxBytes: Int
    public var maxDepth: Int
    public var maxStringBytes: Int
    public var maxMembers: Int

    public static let record = ParseLimits(
        maxBytes: Limits.maxRecordBytes, maxDepth: Limits.maxDepth, maxStringBytes: Limits.maxStringBytes,
        maxMembers: Limits.maxMembers)

    /// The verifier's own checkpoint: millions of bindings, shallow.
    public static let localState = ParseLimits(
        maxBytes: 1 << 30, maxDepth: 8, maxStringBytes: Limits.maxStringBytes, maxMembers: 50_000_000)
}
