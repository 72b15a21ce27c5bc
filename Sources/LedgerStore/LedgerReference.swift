import LedgerFormat

/// A name for something a ledger holds, as `show` and `prove` take it (README's verb table, `show --help`).
///
/// * `KIND:HEX` — the record of that kind whose file is named by `HEX`, or by a name starting with it
///   (4 to 64 hex digits). KIND is a stored kind's name as `verify` and `inspect` print it (`profile`,
///   `manifest`, `mandate`, `verdict`, `receipt`, `status-attempt`, `compromise-report`, `revocation`) or
///   `manifest-signature` for a manifest's `.sig`. A receipt is "named by the verdict it receipts"
///   (docs/FORMAT.md "Paths"), so `receipt:<verdictRef>` is the receipt of that verdict.
/// * `commit:REV` — a commit: its id, a prefix, or any git revision (`main~3`).
/// * `log:N` — write-log entry N.
/// * anything else, bare: a path in the tip's tree, else every reading that matches it — a record whose
///   **content address** starts with it (never a file merely named by it: a bare verdictRef is the verdict,
///   not its receipt), a commit, write-log entry N — of which there must be exactly one. More than one is
///   refused with the candidates listed; `KIND:HEX` chooses.
public enum LedgerReference: Equatable, Sendable {
    case record(kind: String, prefix: String)
    case commit(String)
    case logEntry(Int64)
    case bare(String)

    /// The kind name of a manifest's detached signature file (`…/manifests/a/<hex>.sig`).
    public static let manifestSignatureKind = "manifest-signature"
    /// Every KIND a `KIND:HEX` reference may name, in the order `StoredRecords.kinds` lists them.
    public static let recordKinds = StoredRecords.kinds.map { $0.kindName } + [manifestSignatureKind]
    /// The shortest prefix a reference may give: git's shortest abbreviation. A prefix that matches more
    /// than one thing is refused with the candidates listed, so a short one never picks silently.
    public static let shortestPrefix = 4

    /// Why a text is not a reference: a `KIND:` that is no kind, or a value its kind cannot have.
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The reference `text` spells.
    public static func parse(_ text: String) throws(Malformed) -> LedgerReference {
        guard let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") else { return .bare(text) }
        let kind = String(text[..<colon])
        let value = String(text[text.index(after: colon)...])
        switch kind {
        case "log":
            guard let sequence = Self.sequence(value) else {
                throw Malformed(description: "\(text): log:N takes a write-log sequence number from 1")
            }
            return .logEntry(sequence)
        case "commit":
            guard !value.isEmpty else { throw Malformed(description: "\(text): commit:REV takes a commit id") }
            return .commit(value)
        default:
            guard Self.recordKinds.contains(kind) else {
                throw Malformed(
                    description: "\(text): '\(kind)' is not a kind; \(Self.grammar)")
            }
            guard let prefix = Self.hexPrefix(value) else {
                throw Malformed(
                    description:
                        "\(text): \(kind):HEX takes \(Self.shortestPrefix) to 64 hex digits of the name the \(kind) is stored under"
                )
            }
            return .record(kind: kind, prefix: prefix)
        }
    }

    /// The grammar in one line, for error messages.
    public static let grammar =
        "a reference is KIND:HEX (KIND one of \(recordKinds.joined(separator: ", "))), commit:REV, log:N, "
        + "a path in the ledger, or a bare content address, commit or sequence number"

    /// `text` as a write-log sequence number, when it is one (1 to 10^16 − 1, decimal digits only).
    static func sequence(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int64(text),
            value >= 1, value < 10_000_000_000_000_000
        else { return nil }
        return value
    }

    /// `text` lowercased when it is 4 to 64 hex digits: a content address or a prefix of one.
    static func hexPrefix(_ text: String) -> String? {
        let lowered = text.lowercased()
        let hex = Set("0123456789abcdef")
        guard (shortestPrefix...64).contains(lowered.count), lowered.allSatisfy(hex.contains) else { return nil }
        return lowered
    }
}
