import LedgerFormat

/// How one record is shown wherever it appears: its kind, content address, path in the ledger, its exact
/// canonical JSON (`record-bytes`: the bytes the page's script hashes), its place in the transparency log
/// (``RecordProofs``, when the report has the log), and the commands that check it without this site.
enum RecordBlock {
    static func render(_ stored: LedgerContents.Stored, title: String, proofs: RecordProofs? = nil) -> String {
        let bytes = String(decoding: stored.record.storedBytes, as: UTF8.self)
        let short = String(stored.address.hex.prefix(12))
        return """
            <section class="record" id="\(SiteLinks.anchor(stored))" aria-label="\(HTML.escape(stored.kindName)) \(short)">
            <h3>\(HTML.escape(title))</h3>
            \(HTML.facts([
                ("Kind", HTML.escape(stored.kindName)),
                (stored.record is VerdictReceipt ? "Named by its verdict's address" : "Content address", HTML.address(stored.address)),
                ("SHA-256 of the stored bytes (its log leaf)", HTML.address(SHA256.hash(stored.record.storedBytes))),
                ("Stored at", "\(HTML.code(stored.path))"),
            ]))<details><summary>Canonical JSON (the exact bytes the ledger stores)</summary>
            <pre class="json record-bytes">\(HTML.text(bytes))</pre>
            </details>
            \(proofs?.proof(path: stored.path) ?? "")\(commands(record: stored.path))</section>

            """
    }

    /// A write-log entry: its fields, its path, and the commands for it.
    static func render(entry: WriteLogEntry, title: String, note: String, proofs: RecordProofs? = nil) -> String {
        let bytes = String(decoding: Self.bytes(of: entry), as: UTF8.self)
        return """
            <section class="record write" id="\(SiteLinks.writeAnchor(entry.sequence))" aria-label="write \(entry.sequence)">
            <h3>\(HTML.escape(title))</h3>
            \(note)\(HTML.facts([
                ("Sequence", "\(entry.sequence)"),
                ("Stored at", "\(HTML.code(LedgerLayout.logEntryPath(entry.sequence)))"),
                ("Chain hash", "<code class=\"address\">\(HTML.escape(entry.entryHash))</code>"),
            ]))<details><summary>Canonical JSON (the exact bytes the ledger stores)</summary>
            <pre class="json record-bytes">\(HTML.text(bytes))</pre>
            </details>
            \(proofs?.proof(path: LedgerLayout.logEntryPath(entry.sequence)) ?? "")\(commands(record: "log:\(entry.sequence)"))</section>

            """
    }

    /// A write-log entry's stored bytes (its canonical JSON).
    static func bytes(of entry: WriteLogEntry) -> [UInt8] { CanonicalJSON.encode(entry.json) }

    private static func commands(record: String) -> String {
        """
        <details class="check"><summary>Check it yourself</summary>
        <pre>onym-ledger verify LEDGER --trust TRUST
        onym-ledger show LEDGER \(HTML.escape(record))
        onym-ledger prove LEDGER \(HTML.escape(record)) &gt; proof.txt
        onym-ledger check-proof proof.txt --log-key VKEY</pre>
        </details>

        """
    }
}
