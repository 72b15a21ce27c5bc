/// What a record says, as a reader reads it: a title and labelled facts, each value saying what it is — a
/// time, a key, a content address, an authority, ledger text or words — so that a front end (the report's
/// record pages) formats and links it; no HTML or terminal formatting here. A kind gives its reading with
/// its declaration (``StoredRecord/reading``): the report's record pages and `textconv` render it.
public struct RecordFacts: Sendable {
    /// One labelled line.
    public struct Fact: Sendable {
        public let label: String
        public let value: Value

        public init(_ label: String, _ value: Value) {
            self.label = label
            self.value = value
        }
    }

    /// A table of values under a caption (a manifest's violation classes).
    public struct Table: Sendable {
        public let caption: String
        public let headers: [String]
        public let rows: [[Value]]
    }

    /// A fact's value, by what it is.
    public indirect enum Value: Sendable {
        /// Text as the ledger states it: an identifier, a URL, a name (shown as code, never as a link).
        case text(String)
        /// Words of the reading itself.
        case words(String)
        case time(Instant)
        /// A length of time, in seconds (a class's appeal window, a grant's lifetime).
        case duration(seconds: Int64)
        /// A public key (`onym:key:…`).
        case key(String)
        /// A record named by its content address.
        case reference(ContentAddress)
        /// An authority, by its component id.
        case authority(String)
        /// Nothing stated, with why when it means something.
        case absent(because: String?)
        /// Values one per line.
        case lines([Value])
        /// Values in a list on one line.
        case list([Value])
        /// Values read as one phrase, in order.
        case phrase([Value])
    }

    /// What the record is, in words (`Revocation of onym:component:…`).
    public let title: String
    public let facts: [Fact]
    public let tables: [Table]

    public init(title: String, facts: [Fact], tables: [Table] = []) {
        self.title = title
        self.facts = facts
        self.tables = tables
    }
}

extension RecordFacts.Value {
    /// Ledger text, or nothing stated.
    static func text(_ text: String?) -> Self { text.map { .text($0) } ?? .absent(because: nil) }

    /// A duration of whole days.
    static func days(_ days: Int64) -> Self { .duration(seconds: days * 86_400) }

    /// A duration in words, as every front end writes it: whole days in days (`30 days`, `1 day`), else
    /// whole hours in hours, else seconds.
    public static func words(forSeconds seconds: Int64) -> String {
        func count(_ number: Int64, _ unit: String) -> String { "\(number) \(unit)" + (number == 1 ? "" : "s") }
        if seconds % 86_400 == 0 { return count(seconds / 86_400, "day") }
        if seconds % 3_600 == 0 { return count(seconds / 3_600, "hour") }
        return count(seconds, "second")
    }
}
