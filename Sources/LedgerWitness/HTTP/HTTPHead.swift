/// What an HTTP/1.1 request and answer share on the wire (RFC 9112 §2.1): a start line and header field
/// lines separated by CRLF, ended by an empty line. The server's request parser and the client's answer
/// reader both read their heads here.
enum HTTPHead {
    /// The start of the empty line ending a head (`CRLF CRLF`) in `bytes`, searched from `start`.
    static func blankLine(in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in max(0, start)...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// A head's lines: the start line first, then one per header field.
    static func lines(_ head: [UInt8]) -> [Substring] {
        String(decoding: head, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
    }

    /// The header field lines as (lowercased name, value without surrounding blanks), or nil for a line
    /// without ':' (RFC 9112 §5: `field-name ":" OWS field-value OWS`).
    static func fields(_ lines: ArraySlice<Substring>) -> [(name: String, value: String)]? {
        var fields: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            fields.append((line[..<colon].lowercased(), trimmed(line[line.index(after: colon)...])))
        }
        return fields
    }

    /// `text` without leading and trailing spaces and tabs (OWS).
    private static func trimmed(_ text: Substring) -> String {
        var view = text
        while let first = view.first, first == " " || first == "\t" { view = view.dropFirst() }
        while let last = view.last, last == " " || last == "\t" { view = view.dropLast() }
        return String(view)
    }
}
