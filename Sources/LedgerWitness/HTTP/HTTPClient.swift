import Foundation

/// The project's own HTTP/1.1 client: one POST a connection (`Connection: close`), over a POSIX socket or
/// TLS (``TLSStream``), the whole exchange — connecting, sending, reading the answer — within one deadline,
/// the answer's body bounded. It replaces URLSession, whose FoundationNetworking and libcurl (and their
/// two dozen libraries) every start of the command line paid to load (docs/DECISIONS.md).
enum HTTPClient {
    /// POSTs `body` to `url` (http or https) and reads the answer within `timeout` seconds, at most
    /// `maxAnswerBytes` of body.
    static func post(
        _ body: [UInt8], contentType: String, to url: URL, timeout: Double, maxAnswerBytes: Int
    ) -> Result<HTTPAnswer, HTTPClientError> {
        let deadline = HTTPDeadline(seconds: timeout)
        do throws(HTTPClientError) {
            let target = try Target(url)
            let socket = try SocketStream.connect(host: target.host, port: target.port, deadline: deadline)
            let stream: any HTTPByteStream =
                target.secure ? try TLSStream(over: socket, host: target.host, deadline: deadline) : socket
            let head =
                "POST \(target.path) HTTP/1.1\r\nHost: \(target.hostField)\r\nContent-Type: \(contentType)\r\n"
                + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            try stream.write(Array(head.utf8) + body, deadline: deadline)
            var reader = HTTPAnswerReader(stream: stream, deadline: deadline, maxBodyBytes: maxAnswerBytes)
            return .success(try reader.read())
        } catch {
            return .failure(error)
        }
    }

    /// Where a URL points: scheme, host, port, and the request target (path and query).
    struct Target {
        let secure: Bool
        /// The host without brackets (an IPv6 literal bare), for getaddrinfo and the certificate check.
        let host: String
        let port: UInt16
        let path: String

        init(_ url: URL) throws(HTTPClientError) {
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw HTTPClientError("\(url.absoluteString) is not an http:// or https:// URL")
            }
            guard var host = url.host, !host.isEmpty else { throw HTTPClientError("\(url.absoluteString) has no host") }
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            secure = scheme == "https"
            self.host = host
            guard let port = UInt16(exactly: url.port ?? (secure ? 443 : 80)) else {
                throw HTTPClientError("\(url.absoluteString): the port is out of range")
            }
            self.port = port
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            let encodedPath = components?.percentEncodedPath ?? ""
            path = (encodedPath.isEmpty ? "/" : encodedPath) + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
        }

        /// The Host field (RFC 9110 §7.2): the host, bracketed if IPv6, and the port unless the default.
        var hostField: String {
            let name = host.contains(":") ? "[\(host)]" : host
            return port == (secure ? 443 : 80) ? name : "\(name):\(port)"
        }
    }
}
