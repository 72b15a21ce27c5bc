/// Where each file lives in a ledger repository (docs/FORMAT.md is the contract; this is its code).
///
/// Content-addressed records sit in two-level fan-out folders (`verdicts/ab/cd/<hex>.json`), so
/// at 10 million records of one kind each leaf holds ~150 files and every tree stays small; an
/// append rewrites only the folders on its paths. Write-log entries sit in `log/` under two levels
/// of bounded folders named so that listing order is sequence order.
public enum LedgerLayout {
    public static let descriptorPath = "ledger.json"
    public static let allowedSignersPath = "keys/allowed_signers"
    public static let branch = "refs/heads/main"

    public static let logFolder = "log"
    /// Digits of a write-log entry's file name: sequences up to 10^16 − 1.
    public static let sequenceDigits = 16

    /// `<folder>/ab/cd/<hex>.json`.
    public static func recordPath(_ kind: any StoredRecord.Type, _ address: ContentAddress) -> String {
        let hex = address.hex
        let bytes = Array(hex.utf8)
        let first = String(decoding: bytes[0..<2], as: UTF8.self)
        let second = String(decoding: bytes[2..<4], as: UTF8.self)
        return "\(kind.folder)/\(first)/\(second)/\(hex).json"
    }

    /// Where `record` is stored.
    public static func recordPath(of record: some StoredRecord) -> String {
        recordPath(type(of: record), record.address)
    }

    /// The detached signature beside a manifest: `manifests/ab/cd/<hex>.sig`.
    public static func manifestSignaturePath(_ hash: ContentAddress) -> String {
        let path = recordPath(AuthorityManifest.self, hash)
        return String(path.dropLast(".json".count)) + ".sig"
    }

    /// `log/<seq 0..<10>/<seq 10..<13>/<seq>.json` with the 16-digit zero-padded sequence: at most
    /// 1 000 entries per leaf folder and per middle folder, and 10 top folders per 10 million entries.
    public static func logEntryPath(_ sequence: Int64) -> String {
        precondition(sequence >= 1 && sequence < 10_000_000_000_000_000)
        let digits = String(sequence)
        let padded = String(repeating: "0", count: sequenceDigits - digits.count) + digits
        let bytes = Array(padded.utf8)
        let top = String(decoding: bytes[0..<10], as: UTF8.self)
        let middle = String(decoding: bytes[10..<13], as: UTF8.self)
        return "\(logFolder)/\(top)/\(middle)/\(padded).json"
    }

    /// What a path in a ledger tree names, or nil for a path that is not on the whitelist.
    public enum PathMeaning: Equatable, Sendable {
        case descriptor
        case allowedSigners
        case record(any StoredRecord.Type, ContentAddress)
        case manifestSignature(ContentAddress)
        case logEntry(Int64)

        public static func == (lhs: PathMeaning, rhs: PathMeaning) -> Bool {
            switch (lhs, rhs) {
            case (.descriptor, .descriptor), (.allowedSigners, .allowedSigners): true
            case (.record(let a, let x), .record(let b, let y)): a == b && x == y
            case (.manifestSignature(let x), .manifestSignature(let y)): x == y
            case (.logEntry(let x), .logEntry(let y)): x == y
            default: false
            }
        }
    }

    /// Classifies a full file path. Only exact, canonical spellings match (lowercase hex, the
    /// right fan-out prefix, zero-padded sequences in the right folders).
    public static func classify(_ path: String) -> PathMeaning? {
        if path == descriptorPath { return .descriptor }
        if path == allowedSignersPath { return .allowedSigners }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 4, parts[0] == logFolder {
            let name = parts[3]
            guard name.hasSuffix(".json") else { return nil }
            let digits = String(name.dropLast(5))
            guard digits.utf8.count == sequenceDigits, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let sequence = Int64(digits), sequence >= 1, logEntryPath(sequence) == path
            else { return nil }
            return .logEntry(sequence)
        }
        guard parts.count == 4, let kind = StoredRecords.kind(inFolder: parts[0]) else { return nil }
        let name = parts[3]
        if kind == AuthorityManifest.self, name.hasSuffix(".sig") {
            guard let hash = ContentAddress(hex: String(name.dropLast(4))), manifestSignaturePath(hash) == path else {
                return nil
            }
            return .manifestSignature(hash)
        }
        guard name.hasSuffix(".json"), let address = ContentAddress(hex: String(name.dropLast(5))),
            recordPath(kind, address) == path
        else { return nil }
        return .record(kind, address)
    }
}
