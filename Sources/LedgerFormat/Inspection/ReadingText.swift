/// A reading (``RecordFacts``) as plain text, for `textconv`: its title, then one `  label: value` line a
/// fact — a value of several lines continues on lines indented under its first — then each table under
/// its caption, in columns aligned by padding. Times in RFC 3339, content addresses in full hex, durations
/// in words. Ledger text reaches a reviewer's terminal (`git log -p`), so every control character and
/// every bidirectional-formatting character is shown escaped (`\n`, `\u{1b}`, `\u{202e}`): a record can
/// neither rewrite the screen nor reorder what it shows. The record's exact text is its JSON above.
enum ReadingText {
    static func lines(_ reading: RecordFacts) -> [String] {
        var lines = [escape(reading.title)]
        for fact in reading.facts {
            let label = "  " + escape(fact.label) + ": "
            let indent = String(repeating: " ", count: label.count)
            for (index, line) in text(fact.value).enumerated() {
                lines.append((index == 0 ? label : indent) + line)
            }
        }
        for table in reading.tables {
            lines += ["", "  " + escape(table.caption)]
            let rows = [table.headers.map(escape)] + table.rows.map { $0.map(cell) }
            let widths = (0..<table.headers.count).map { column in
                rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
            }
            for row in rows {
                let padded = row.enumerated().map { column, text in
                    column == row.count - 1 ? text : text + String(repeating: " ", count: widths[column] - text.count)
                }
                lines.append("  " + padded.joined(separator: "  "))
            }
        }
        return lines
    }

    /// A value as lines: one, or one a value of `lines`.
    private static func text(_ value: RecordFacts.Value) -> [String] {
        switch value {
        case .text(let text), .key(let text), .words(let text), .authority(let text): [escape(text)]
        case .time(let instant): [instant.rfc3339]
        case .duration(let seconds): [RecordFacts.Value.words(forSeconds: seconds)]
        case .reference(let address): [address.hex]
        case .absent(let because): ["—" + (because.map { " (\(escape($0)))" } ?? "")]
        case .lines(let values): values.isEmpty ? ["—"] : values.flatMap(text)
        case .list(let values): [values.map(cell).joined(separator: ", ")]
        case .phrase(let values): [values.map(cell).joined()]
        }
    }

    /// A value on one line (a table's cell, an item of a list or phrase).
    private static func cell(_ value: RecordFacts.Value) -> String { text(value).joined(separator: "; ") }

    /// `text` with its C0 and C1 control characters and its bidirectional-formatting characters (Unicode
    /// Bidi_Control: ALM, LRM, RLM, LRE…RLO, LRI…PDI) written as Swift escapes.
    static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            case "\r": escaped += "\\r"
            case _ where isEscaped(scalar): escaped += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
