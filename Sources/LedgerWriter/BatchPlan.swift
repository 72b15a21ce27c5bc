public import LedgerFormat
import LedgerStore

/// What one append will write: new files by path, and the log position after it.
public struct BatchPlan: Sendable {
    public struct Counts: Sendable, Equatable {
        public var profiles = 0
        public var manifests = 0
        public var mandates = 0
        public var verdicts = 0
        public var receipts = 0
        public var entries = 0
        /// Status attempts, compromise reports and revocation determinations.
        public var revocationRecords = 0
        /// Records of any other stored kind.
        public var otherRecords = 0
        /// Witnesses' cosigned checkpoints (`cosignatures/`).
        public var cosignatures = 0
        /// Records that were already in the ledger (re-appends are no-ops).
        public var alreadyPresent = 0

        public var total: Int {
            profiles + manifests + mandates + verdicts + receipts + entries + revocationRecords + otherRecords
                + cosignatures
        }
    }

    public internal(set) var files: [(path: String, bytes: [UInt8])] = []
    /// The input file each planned path came from (how a policy's finding names the file to fix).
    public internal(set) var sources: [String: String] = [:]
    /// Position in ``files`` by path.
    var index: [String: Int] = [:]
    public internal(set) var counts = Counts()
    public internal(set) var trailers: LedgerTrailers

    public var isEmpty: Bool { files.isEmpty }

    mutating func append(_ path: String, _ bytes: [UInt8], source: String) {
        index[path] = files.count
        files.append((path, bytes))
        sources[path] = source
    }

    /// The commit message: a one-line summary, then the trailers.
    public var commitMessage: String {
        var parts: [String] = []
        func add(_ count: Int, _ singular: String, _ plural: String) {
            if count > 0 { parts.append("\(count) \(count == 1 ? singular : plural)") }
        }
        add(counts.profiles, "profile", "profiles")
        add(counts.manifests, "manifest", "manifests")
        add(counts.mandates, "mandate", "mandates")
        add(counts.verdicts, "verdict", "verdicts")
        add(counts.receipts, "receipt", "receipts")
        add(counts.entries, "write-log entry", "write-log entries")
        add(counts.revocationRecords, "revocation record", "revocation records")
        add(counts.otherRecords, "other record", "other records")
        add(counts.cosignatures, "cosignature", "cosignatures")
        return "append: \(parts.joined(separator: ", "))\n\n\(trailers.text)"
    }
}
