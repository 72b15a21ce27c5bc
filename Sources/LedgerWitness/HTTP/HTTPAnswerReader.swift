/// A server's answer: its status, header fields (names lowercased) and body.
struct HTTPAnswer: Sendable {
    let status: Int
    let fields: [(name: String, value: String)]
    let body: [UInt8]

    /// The first value of the field `name` (case-insensitive).
    func field(_ name: String) -> String? {
        let name = name.lowercased()
        return fields.first { $0.name == name }?.value
    }
}

/// Reads one answer from a stream within bounds (RFC 9112): the head at most ``maxHeadBytes``, interim
/// 1xx answers skipped, then the body framed by `Transfer-Encoding: chunked`, by `Content-Length`, or by
/// the end of the stream — at most `maxBodyBytes` of it, refused as soon as it is known to be longer.
struct HTTPAnswerReader {
    static let maxHeadBytes = 16 * 1024
    /// A chunk-size line (`1*HEXDIG [ chunk-ext ]`) is far shorter than this.
    static let maxLineBytes = 1024

    let stream: any HTTPByteStream
    let deadline: HTTPDeadline
    let maxBodyBytes: Int
    /// Bytes read and not yet consumed.
    private var buffer: [UInt8] = []

    init(stream: any HTTPByteStream, deadline: HTTPDeadline, maxBodyBytes: Int) {
        self.stream = stream
        self.deadline = deadline
        self.maxBodyBytes = maxBodyBytes
    }

    mutating func read() throws(HTTPClientError) -> HTTPAnswer {
        var head = try readHead()
        while (100..<200).contains(head.status) { head = try readHead() }
        let body: [UInt8]
        if head.status == 204 || head.status == 304 {
            body = []
        } else if let coding = head.field("transfer-encoding") {
            guard coding.lowercased() == "chunked" else {
                throw Self.notHTTP("the transfer coding '\(coding)' is not chunked")
            }
            body = try readChunks()
        } else if let length = head.field("content-length") {
            guard !length.isEmpty, length.utf8.allSatisfy({ (48...57).contains($0) }), let size = Int(length) else {
                throw Self.notHTTP("Content-Length '\(length)' is not a decimal")
            }
            guard size <= maxBodyBytes else { throw overLong }
            body = try take(size, "the body")
        } else {
            body = try readToEnd()
        }
        return HTTPAnswer(status: head.status, fields: head.fields, body: body)
    }

    private var overLong: HTTPClientError { HTTPClientError("the answer is over \(maxBodyBytes) bytes") }

    private static func notHTTP(_ detail: String) -> HTTPClientError {
        HTTPClientError("not an HTTP answer: \(detail)")
    }

    /// Reads more into the buffer; false at the end of the stream.
    private mutating func fill() throws(HTTPClientError) -> Bool {
        let bytes = try stream.read(deadline: deadline)
        buffer += bytes
        return !bytes.isEmpty
    }

    /// The status line and header fields (RFC 9112 §4: `HTTP-version SP status-code SP [ reason-phrase ]`).
    /// The answer without its body.
    private mutating func readHead() throws(HTTPClientError) -> HTTPAnswer {
        var end = HTTPHead.blankLine(in: buffer, from: 0)
        while end == nil {
            guard buffer.count <= Self.maxHeadBytes else {
                throw Self.notHTTP("a head over \(Self.maxHeadBytes) bytes")
            }
            let searched = buffer.count - 3
            guard try fill() else {
                throw Self.notHTTP(buffer.isEmpty ? "the server closed the connection without answering" : "a cut head")
            }
            end = HTTPHead.blankLine(in: buffer, from: searched)
        }
        guard let end, end <= Self.maxHeadBytes else { throw Self.notHTTP("a head over \(Self.maxHeadBytes) bytes") }
        var lines = HTTPHead.lines(Array(buffer[..<end]))[...]
        buffer.removeFirst(end + 4)
        let statusLine = lines.popFirst() ?? ""
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, parts[1].allSatisfy(\.isASCII),
            let status = Int(parts[1]), status >= 100
        else { throw Self.notHTTP("the status line is '\(statusLine.prefix(80))'") }
        guard let fields = HTTPHead.fields(lines) else { throw Self.notHTTP("a header line without ':'") }
        return HTTPAnswer(status: status, fields: fields, body: [])
    }

    /// Exactly `count` bytes.
    private mutating func take(_ count: Int, _ what: String) throws(HTTPClientError) -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw Self.notHTTP("\(what) ends after \(buffer.count) of \(count) bytes") }
        }
        let taken = Array(buffer[..<count])
        buffer.removeFirst(count)
        return taken
    }

    /// One line without its CRLF, at most ``maxLineBytes``.
    private mutating func line() throws(HTTPClientError) -> Substring {
        var searched = 0
        while true {
            if let end = buffer[searched...].indices.first(where: {
                buffer[$0] == 13 && $0 + 1 < buffer.count && buffer[$0 + 1] == 10
            }) {
                let text = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 2)
                return text[...]
            }
            guard buffer.count <= Self.maxLineBytes else {
                throw Self.notHTTP("a chunk line over \(Self.maxLineBytes) bytes")
            }
            searched = max(0, buffer.count - 1)
            guard try fill() else { throw Self.notHTTP("the chunked body is cut") }
        }
    }

    /// RFC 9112 §7.1: `*chunk last-chunk trailer-section CRLF`, each chunk `chunk-size [ chunk-ext ] CRLF
    /// chunk-data CRLF`; extensions and trailer fields are read and ignored.
    private mutating func readChunks() throws(HTTPClientError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let sizeLine = try line()
            let digits = sizeLine.prefix { $0 != ";" && $0 != " " && $0 != "\t" }
            guard !digits.isEmpty, digits.count <= 16, digits.allSatisfy(\.isHexDigit),
                let size = Int(digits, radix: 16)
            else { throw Self.notHTTP("the chunk size line is '\(sizeLine.prefix(40))'") }
            if size == 0 { break }
            guard size <= maxBodyBytes - body.count else { throw overLong }
            body += try take(size, "a chunk")
            guard try take(2, "a chunk") == [13, 10] else { throw Self.notHTTP("a chunk not ended by CRLF") }
        }
        var trailer = 0
        while try !line().isEmpty {
            trailer += 1
            guard trailer <= 64 else { throw Self.notHTTP("over 64 trailer fields") }
        }
        return body
    }

    /// Everything until the server closes the connection.
    private mutating func readToEnd() throws(HTTPClientError) -> [UInt8] {
        while buffer.count <= maxBodyBytes {
            guard try fill() else { return buffer }
        }
        throw overLong
    }
}
