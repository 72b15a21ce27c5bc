import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A small HTTP/1.1 server on POSIX sockets: one request per connection, a thread per connection up to
/// `maxConnections` (more are answered 503 at once), a bounded head and body (`HTTPRequestParser`), and
/// `timeout` seconds for each read and write and twice that for a whole request, so a slow or silent
/// client costs one thread for a bounded time and never blocks another.
public final class HTTPServer: Sendable {
    public struct Limits: Sendable {
        public var maxHeadBytes = 8 * 1024
        public var maxBodyBytes = 64 * 1024
        public var maxConnections = 64
        /// Seconds each read or write may wait; a whole request gets twice this.
        public var timeout: Double = 10
        public init() {}
    }

    public struct StartError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    private let socket: Int32
    private let limits: Limits
    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private let active = ActiveCount()
    /// The address and port bound (the port the kernel chose for `:0`).
    public let boundAddress: String

    private final class ActiveCount: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func enter(max: Int) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            guard count < max else { return false }
            count += 1
            return true
        }
        func leave() {
            lock.lock()
            count -= 1
            lock.unlock()
        }
    }

    /// Binds and listens on `address` (`HOST:PORT`, `[IPv6]:PORT`; port 0 lets the kernel choose).
    public init(
        listen address: String, limits: Limits = Limits(), handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) throws(StartError) {
        guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...])
        else { throw StartError(description: "--listen \(address): give HOST:PORT, such as 127.0.0.1:7380") }
        var host = String(address[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV | AI_NUMERICHOST
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &found) == 0, let info = found else {
            throw StartError(description: "--listen \(address): \(host) is not a numeric IPv4 or IPv6 address")
        }
        defer { freeaddrinfo(found) }
        let fd = Glibc.socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard fd >= 0 else { throw StartError(description: "socket: \(Self.errorText())") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0, Glibc.listen(fd, 128) == 0 else {
            let reason = Self.errorText()
            close(fd)
            throw StartError(description: "--listen \(address): cannot listen (\(reason))")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var name = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                getsockname(fd, pointer, &length)
                return getnameinfo(
                    pointer, length, &name, socklen_t(name.count), &service, socklen_t(service.count),
                    NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        let boundHost = Self.text(name)
        boundAddress = (boundHost.contains(":") ? "[\(boundHost)]" : boundHost) + ":" + Self.text(service)
        socket = fd
        self.limits = limits
        self.handler = handler
    }

    /// A NUL-terminated C string buffer as text.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func errorText() -> String {
        guard let message = strerror(errno) else { return "errno \(errno)" }
        return String(validatingCString: message) ?? "errno \(errno)"
    }

    /// Accepts connections until the process ends.
    public func run() -> Never {
        while true {
            let client = accept(socket, nil, nil)
            guard client >= 0 else {
                // Out of descriptors or memory (EMFILE, ENOBUFS…): back off instead of spinning on the error.
                if errno != EINTR && errno != ECONNABORTED { usleep(50_000) }
                continue
            }
            var wait = timeval(
                tv_sec: Int(limits.timeout), tv_usec: Int((limits.timeout.truncatingRemainder(dividingBy: 1)) * 1e6))
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            guard active.enter(max: limits.maxConnections) else {
                send(client, HTTPRequestParser.refusal(503, "too many connections; retry later"))
                close(client)
                continue
            }
            Thread.detachNewThread { [self] in
                defer {
                    close(client)
                    active.leave()
                }
                send(client, respond(to: client))
                drain(client)
            }
        }
    }

    private func respond(to client: Int32) -> HTTPResponse {
        let parser = HTTPRequestParser(maxHeadBytes: limits.maxHeadBytes, maxBodyBytes: limits.maxBodyBytes)
        let deadline = ProcessInfo.processInfo.systemUptime + 2 * limits.timeout
        var buffer: [UInt8] = []
        var headEnd: Int?
        while headEnd == nil {
            guard buffer.count <= parser.maxHeadBytes else {
                return HTTPRequestParser.refusal(431, "the request head is over \(parser.maxHeadBytes) bytes")
            }
            guard let chunk = receive(client, deadline: deadline) else {
                return HTTPRequestParser.refusal(408, "the request did not arrive in time")
            }
            let searchFrom = max(0, buffer.count - 3)
            buffer += chunk
            headEnd = HTTPHead.blankLine(in: buffer, from: searchFrom)
        }
        guard let headEnd else { return HTTPRequestParser.refusal(400, "no request") }
        let head: HTTPRequestParser.RequestHead
        switch parser.parseHead(Array(buffer[..<headEnd])) {
        case .success(let parsed): head = parsed
        case .failure(let refusal): return refusal
        }
        var body = Array(buffer[(headEnd + 4)...])
        if head.expectsContinue && body.count < head.length {
            write(client, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        while body.count < head.length {
            guard let chunk = receive(client, deadline: deadline) else {
                return HTTPRequestParser.refusal(408, "the request body did not arrive in time")
            }
            body += chunk
        }
        guard body.count == head.length else {
            return HTTPRequestParser.refusal(400, "more bytes than the Content-Length (one request per connection)")
        }
        return handler(HTTPRequest(method: head.method, path: head.path, body: body))
    }

    /// The next bytes, nil on end of stream, an error, a read timeout, or past the deadline.
    private func receive(_ client: Int32, deadline: Double) -> [UInt8]? {
        guard ProcessInfo.processInfo.systemUptime < deadline else { return nil }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = recv(client, &chunk, chunk.count, 0)
        return count > 0 ? Array(chunk[..<count]) : nil
    }

    /// Reads what the client still sends (a body refused unread) for at most one timeout, so closing the
    /// socket does not reset the connection before the client has read the answer.
    private func drain(_ client: Int32) {
        let deadline = ProcessInfo.processInfo.systemUptime + limits.timeout
        var drained = 0
        while drained < 4 * limits.maxBodyBytes, let chunk = receive(client, deadline: deadline) {
            drained += chunk.count
        }
    }

    /// Writes the whole response and ends the connection's sending side.
    private func send(_ client: Int32, _ response: HTTPResponse) {
        write(client, response.serialized)
        shutdown(client, Int32(SHUT_WR))
    }

    /// Writes all of `bytes`; a peer that went away is not an error here (MSG_NOSIGNAL: no SIGPIPE).
    private func write(_ client: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return }
            sent += count
        }
    }
}
