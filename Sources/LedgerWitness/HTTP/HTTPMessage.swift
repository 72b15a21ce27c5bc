/// One HTTP/1.1 request as the witness server reads it: method, path, the headers it needs, and the body.
public struct HTTPRequest: Sendable {
    public let method: String
    public let path: String
    public let body: [UInt8]
}

/// One response; the server always closes the connection after it (`Connection: close`).
public struct HTTPResponse: Sendable, Error {
    public let status: Int
    public let contentType: String
    public let body: [UInt8]
    public var headers: [(String, String)] = []

    public init(status: Int, contentType: String = "text/plain; charset=utf-8", body: String) {
        self.status = status
        self.contentType = contentType
        self.body = Array(body.utf8)
    }

    static let reasons: [Int: String] = [
        200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        408: "Request Timeout", 409: "Conflict", 411: "Length Required", 413: "Content Too Large",
        422: "Unprocessable Content", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
        500: "Internal Server Error", 501: "Not Implemented", 503: "Service Unavailable",
    ]

    /// The bytes on the wire.
    var serialized: [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reasons[status] ?? "Status")\r\n"
        head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }
}

/// Reads a request's head and body within fixed bounds: the head at most `maxHeadBytes`, the body exactly
/// its `Content-Length`, at most `maxBodyBytes` (a larger one is refused before it is read, 413).
struct HTTPRequestParser {
    let maxHeadBytes: Int
    let maxBodyBytes: Int

    /// What the head says: the method, the path, the body length to read, and whether the client waits
    /// for `100 Continue` before sending the body (`Expect: 100-continue`, RFC 9110 §10.1.1; curl, and so
    /// URLSession on Linux, sends it with bodies over 1 KiB).
    struct RequestHead {
        let method: String
        let path: String
        let length: Int
        let expectsContinue: Bool
    }

    /// Parses `head` (everything before the blank line, without it), or says why it is refused.
    func parseHead(_ head: [UInt8]) -> Result<RequestHead, HTTPResponse> {
        var lines = HTTPHead.lines(head)[...]
        guard let first = lines.popFirst() else { return .failure(Self.refusal(400, "an empty request")) }
        let requestLine = first.split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else {
            return .failure(Self.refusal(400, "the request line is 'METHOD PATH HTTP/1.x'"))
        }
        guard let fields = HTTPHead.fields(lines) else {
            return .failure(Self.refusal(400, "a header line without ':'"))
        }
        var length: Int?
        var expectsContinue = false
        for (name, value) in fields {
            if name == "transfer-encoding" {
                return .failure(Self.refusal(411, "send the body with a Content-Length, not Transfer-Encoding"))
            }
            if name == "expect" { expectsContinue = value.lowercased() == "100-continue" }
            if name == "content-length" {
                guard length == nil, let parsed = Int(value), parsed >= 0, value.allSatisfy(\.isASCII) else {
                    return .failure(Self.refusal(400, "one Content-Length, a decimal"))
                }
                length = parsed
            }
        }
        let method = String(requestLine[0])
        if method == "POST" && length == nil { return .failure(Self.refusal(411, "a POST carries a Content-Length")) }
        let size = length ?? 0
        guard size <= maxBodyBytes else {
            return .failure(Self.refusal(413, "the body is \(size) bytes; at most \(maxBodyBytes) are read"))
        }
        return .success(
            RequestHead(
                method: method, path: String(requestLine[1]), length: size, expectsContinue: expectsContinue))
    }

    static func refusal(_ status: Int, _ message: String) -> HTTPResponse {
        HTTPResponse(status: status, body: message + "\n")
    }
}
