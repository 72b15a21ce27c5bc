/// The trailers every ledger commit carries: the write-log size and head hash after the commit.
///
/// They publish the chain head the reference never publishes (onym-wire §3.14 observation), so
/// removing or reordering entries at the tail is caught by any later commit's trailers.
public struct LedgerTrailers: Equatable, Sendable {
    public static let sizeKey = "Onym-Ledger-Log-Size"
    public static let headKey = "Onym-Ledger-Log-Head"
    public static let writesKey = "Onym-Ledger-Writes"
    public static let idempotencyKeyKey = "Onym-Ledger-Idempotency-Key"

    public var logSize: Int64
    /// The last entry's `entryHash`, or `genesis` for an empty log.
    public var logHead: String
    /// The digest of the write requests a batch chained (see ``WriteRequest/digest(_:)``), so that a
    /// retried append whose first attempt did land is recognized and not logged twice.
    public var writesDigest: ContentAddress?
    /// The identity the caller gave the batch (`append --idempotency-key`): a retry of the same call
    /// carries the same key and is recognized by it, never by equal content.
    public var idempotencyKey: String?

    public init(
        logSize: Int64, logHead: String, writesDigest: ContentAddress? = nil, idempotencyKey: String? = nil
    ) {
        self.logSize = logSize
        self.logHead = logHead
        self.writesDigest = writesDigest
        self.idempotencyKey = idempotencyKey
    }

    /// Whether `key` may name a batch: 1–128 characters of letters, digits and `. _ : @ / + = -`.
    public static func isValidIdempotencyKey(_ key: String) -> Bool {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:@/+=-")
        return (1...128).contains(key.count) && key.allSatisfy(allowed.contains)
    }

    public static let empty = LedgerTrailers(logSize: 0, logHead: WriteLogEntry.genesis)

    public var text: String {
        var text = "\(Self.sizeKey): \(logSize)\n\(Self.headKey): \(logHead)\n"
        if let writesDigest { text += "\(Self.writesKey): \(writesDigest.hex)\n" }
        if let idempotencyKey { text += "\(Self.idempotencyKeyKey): \(idempotencyKey)\n" }
        return text
    }

    /// Reads the trailers from a commit message: both keys exactly once, in the last paragraph.
    public init?(message: String) {
        let paragraphs = message.split(separator: "\n\n", omittingEmptySubsequences: true)
        guard let last = paragraphs.last else { return nil }
        var size: Int64?
        var head: String?
        var writes: ContentAddress?
        var key: String?
        for line in last.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { String($0).trimmingWhitespace }
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case Self.sizeKey:
                guard size == nil, let value = Int64(parts[1]), value >= 0 else { return nil }
                size = value
            case Self.headKey:
                guard head == nil, parts[1] == WriteLogEntry.genesis || ContentAddress(hex: String(parts[1])) != nil
                else { return nil }
                head = String(parts[1])
            case Self.writesKey:
                guard writes == nil, let digest = ContentAddress(hex: String(parts[1])) else { return nil }
                writes = digest
            case Self.idempotencyKeyKey:
                guard key == nil, Self.isValidIdempotencyKey(String(parts[1])) else { return nil }
                key = String(parts[1])
            default:
                continue
            }
        }
        guard let size, let head else { return nil }
        self.init(logSize: size, logHead: head, writesDigest: writes, idempotencyKey: key)
    }
}
