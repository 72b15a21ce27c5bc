import LedgerFormat

/// A record page's reading, above its hashes and exact bytes: the facts the record's kind gives
/// (`StoredRecord.reading`, `RecordFacts`), formatted here — times as `<time>`, addresses and ledger
/// text as code (URLs shown as text, never as links: the site links only inside itself), an authority as
/// a link to its page, a duration in words. Mandates, verdicts and receipts are shown on their binding's
/// page, told by its story; the other kinds have pages of their own, which show their reading.
enum RecordReading {
    /// The readable part of a record page.
    static func render(_ record: any StoredRecord) -> String {
        let reading = record.reading
        return HTML.facts(reading.facts.map { ($0.label, html($0.value)) }) + reading.tables.map(table).joined()
    }

    /// The title of a record page: what the record is, in words.
    static func title(_ stored: LedgerContents.Stored) -> String {
        stored.record.reading.title
    }

    /// A manifest's violation classes and their terms, as the users consented to them — the same table on
    /// the authority's page and on the manifest's own page.
    static func classTable(_ manifest: AuthorityManifest) -> String { table(manifest.classTable) }

    private static func table(_ table: RecordFacts.Table) -> String {
        HTML.table(caption: table.caption, headers: table.headers, rows: table.rows.map { $0.map(html) })
    }

    /// A value as HTML, by what it is.
    private static func html(_ value: RecordFacts.Value) -> String {
        switch value {
        case .text(let text), .key(let text): HTML.code(text)
        case .words(let words): HTML.escape(words)
        case .time(let instant): HTML.time(instant)
        case .duration(let seconds): HTML.escape(RecordFacts.Value.words(forSeconds: seconds))
        case .reference(let address): HTML.address(address)
        case .authority(let authority):
            "<a href=\"../\(SiteLinks.authority(WireString(authority)))\">\(HTML.code(authority))</a>"
        case .absent(let because): "—" + (because.map { " (\(HTML.escape($0)))" } ?? "")
        case .lines(let values): values.map(html).joined(separator: "<br>")
        case .list(let values): values.map(html).joined(separator: ", ")
        case .phrase(let values): values.map(html).joined()
        }
    }
}
