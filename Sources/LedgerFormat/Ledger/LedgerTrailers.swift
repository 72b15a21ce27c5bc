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

    /// Whether `key` may name a batch: 1–128 bytes, each an ASCII letter or digit or one of `. _ : @ / + = -`
    /// (told by bytes: the Kelvin sign is not `K`).
    public static func isValidIdempotencyKey(_ key: String) -> Bool {
        (1...128).contains(key.utf8.count) && key.utf8.allSatisfy(idempotencyKeyBytes.contains)
    }

    private static let idempotencyKeyBytes = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:@/+=-".utf8)

    public static let empty = LedgerTrailers(logSize: 0, logHead: WriteLogEntry.genesis)

    public var text: String {
        var text = "\(Self.sizeKey): \(logSize)\n\(Self.headKey): \(logHead)\n"
        if let writesDigest { text += "\(Self.writesKey): \(writesDigest.hex)\n" }
        if let idempotencyKey { text += "\(Self.idempotencyKeyKey): \(idempotencyKey)\n" }
        return text
    }

    /// Reads the trailers from a commit message in the grammar docs/FORMAT.md "Commits" states; nil when the
    /// message breaks it (``parse(message:)`` says how).
    public init?(message: String) {
        guard case .success(let trailers) = Self.parse(message: message) else { return nil }
        self = trailers
    }

    /// Why a commit message is off the grammar.
    public struct GrammarError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// A commit message in the grammar of docs/FORMAT.md "Commits" — the one every ledger commit has, so
    /// that git's `interpret-trailers` and this reader see the same trailers: a one-line summary (not
    /// starting with `---`, git's patch divider), one blank line, then the trailer block to the end: one or
    /// more lines `<key>: <value>` each ended by LF, `<key>` one of the four this format defines (each at
    /// most once, size and head required, any order), one space after the colon, the value in its key's
    /// grammar with no space around it. No CR, no continuation lines, no other lines, nothing after.
    ///
    /// Read on bytes, as git reads a message: Swift's characters would take CR LF for one character (so a
    /// CR in the summary would pass for none) and join a combining mark to the `-`, `:` or space before it.
    public static func parse(message: String) -> Result<LedgerTrailers, GrammarError> {
        func refuse(_ reason: String) -> Result<LedgerTrailers, GrammarError> {
            .failure(GrammarError(description: reason))
        }
        let (lineFeed, carriageReturn, colon, space, tab): (UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0x0A, 0x0D, 0x3A, 0x20, 0x09)
        let bytes = Array(message.utf8)
        guard !bytes.contains(carriageReturn) else { return refuse("the commit message holds a carriage return") }
        guard let split = bytes.firstRange(of: [lineFeed, lineFeed]) else {
            return refuse("the commit message has no blank line before its trailers")
        }
        let summary = bytes[..<split.lowerBound]
        guard !summary.isEmpty, !summary.contains(lineFeed), !summary.starts(with: "---".utf8) else {
            return refuse("the commit message's summary is one line (not starting with ---) before the blank line")
        }
        let block = bytes[split.upperBound...]
        guard block.last == lineFeed else { return refuse("the trailer block ends with a line feed") }
        var values: [String: String] = [:]
        for line in block.dropLast().split(separator: lineFeed, omittingEmptySubsequences: false) {
            guard let colonIndex = line.firstIndex(of: colon),
                let key = Self.keys.first(where: { $0.utf8.elementsEqual(line[..<colonIndex]) })
            else {
                return refuse(
                    "'\(String(decoding: line, as: UTF8.self))' is not a trailer of this format "
                        + "(\(Self.keys.joined(separator: ", ")))")
            }
            let rest = line[(colonIndex + 1)...]
            let value = rest.dropFirst()
            guard rest.first == space, !value.isEmpty, value.first != space, value.last != space, !value.contains(tab)
            else { return refuse("\(key): one space after the colon, then the value with no space around it") }
            guard values[key] == nil else { return refuse("\(key) is stated twice") }
            values[key] = String(decoding: value, as: UTF8.self)
        }
        guard let sizeText = values[sizeKey], let size = Int64(sizeText), size >= 0,
            sizeText == String(size)
        else { return refuse("\(sizeKey) is required: a whole number, no sign or leading zero") }
        guard let head = values[headKey], head == WriteLogEntry.genesis || isLowercaseHex64(head) else {
            return refuse("\(headKey) is required: genesis or 64 lowercase hex digits")
        }
        var trailers = LedgerTrailers(logSize: size, logHead: head)
        if let writes = values[writesKey] {
            guard isLowercaseHex64(writes), let digest = ContentAddress(hex: writes) else {
                return refuse("\(writesKey) is 64 lowercase hex digits")
            }
            trailers.writesDigest = digest
        }
        if let key = values[idempotencyKeyKey] {
            guard isValidIdempotencyKey(key) else {
                return refuse("\(idempotencyKeyKey) is 1–128 of A-Z a-z 0-9 . _ : @ / + = -")
            }
            trailers.idempotencyKey = key
        }
        return .success(trailers)
    }

    /// The trailer keys this format defines (docs/FORMAT.md "Commits").
    public static let keys = [sizeKey, headKey, writesKey, idempotencyKeyKey]

    static func isLowercaseHex64(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// How many consecutive commits an idempotency key names one batch in: the writer recognizes a retry
    /// among the last this many, and the verifier refuses a key one of the last this many carries
    /// (docs/DECISIONS.md, "The retry contract").
    public static let retryWindow = 256
}
