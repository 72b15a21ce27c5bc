#if canImport(Glibc)
    import Glibc
#endif

/// Why an exchange with a server failed, in words for the user (`unreachable: …`, `timed out …`, …).
struct HTTPClientError: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    /// The system's words for `code` (an errno value).
    static func systemText(_ code: Int32) -> String {
        guard let message = strerror(code) else { return "errno \(code)" }
        return String(validatingCString: message) ?? "errno \(code)"
    }
}

/// The moment, on the monotonic clock, by which a whole exchange ends: connecting, sending and reading
/// the answer all wait only until then.
struct HTTPDeadline: Sendable {
    let seconds: Double
    private let end: Double

    init(seconds: Double) {
        self.seconds = seconds
        end = Self.now() + seconds
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// What is left, in whole milliseconds rounded up, for `poll`; 0 once the moment has passed.
    var remainingMilliseconds: Int32 {
        let left = (end - Self.now()) * 1000
        return left <= 0 ? 0 : Int32(min(left.rounded(.up), Double(Int32.max)))
    }

    var error: HTTPClientError {
        HTTPClientError("timed out: no complete answer within \(seconds.formatted) s")
    }
}

extension Double {
    /// `2` for 2.0, `0.5` for 0.5: a duration as the user wrote it.
    fileprivate var formatted: String { self == rounded() ? String(Int(self)) : String(self) }
}

/// Bytes in both directions with a deadline: a plain TCP connection, or TLS over one.
protocol HTTPByteStream: AnyObject {
    /// Sends all of `bytes` before `deadline`.
    func write(_ bytes: [UInt8], deadline: HTTPDeadline) throws(HTTPClientError)
    /// The next bytes that arrive before `deadline`; empty at the end of the stream.
    func read(deadline: HTTPDeadline) throws(HTTPClientError) -> [UInt8]
}

/// A non-blocking TCP connection whose every wait is a `poll` bounded by the deadline.
final class SocketStream: HTTPByteStream {
    private let socket: Int32

    private init(socket: Int32) { self.socket = socket }

    deinit { close(socket) }

    /// Resolves `host` (getaddrinfo) and connects to the first address that answers before `deadline`.
    static func connect(host: String, port: UInt16, deadline: HTTPDeadline) throws(HTTPClientError) -> SocketStream {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &found)
        guard resolved == 0 else {
            let reason = gai_strerror(resolved).flatMap { String(validatingCString: $0) } ?? "error \(resolved)"
            throw HTTPClientError("unreachable: \(host): \(reason)")
        }
        defer { freeaddrinfo(found) }
        var reason = "no address"
        var entry = found
        while let info = entry {
            entry = info.pointee.ai_next
            let flags = Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            let descriptor = Glibc.socket(
                info.pointee.ai_family, info.pointee.ai_socktype | flags, info.pointee.ai_protocol)
            guard descriptor >= 0 else {
                reason = HTTPClientError.systemText(errno)
                continue
            }
            let stream = SocketStream(socket: descriptor)
            if Glibc.connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return stream }
            guard errno == EINPROGRESS else {
                reason = HTTPClientError.systemText(errno)
                continue
            }
            try stream.wait(for: Int16(POLLOUT), deadline: deadline)
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
            if failure == 0 { return stream }
            reason = HTTPClientError.systemText(failure)
        }
        throw HTTPClientError("unreachable: \(host) port \(port): \(reason)")
    }

    /// Waits until the socket is ready for `events` (or has failed: the next call says how).
    private func wait(for events: Int16, deadline: HTTPDeadline) throws(HTTPClientError) {
        while true {
            let left = deadline.remainingMilliseconds
            guard left > 0 else { throw deadline.error }
            var entry = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&entry, 1, left)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw HTTPClientError("poll: \(HTTPClientError.systemText(errno))") }
        }
    }

    func write(_ bytes: [UInt8], deadline: HTTPDeadline) throws(HTTPClientError) {
        var sent = 0
        while sent < bytes.count {
            // MSG_NOSIGNAL: a peer that went away is an error here, never a SIGPIPE.
            let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count >= 0 {
                sent += count
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLOUT), deadline: deadline)
            } else if errno != EINTR {
                throw HTTPClientError("the connection failed while sending: \(HTTPClientError.systemText(errno))")
            }
        }
    }

    func read(deadline: HTTPDeadline) throws(HTTPClientError) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return Array(chunk[..<count]) }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLIN), deadline: deadline)
            } else if errno != EINTR {
                throw HTTPClientError("the connection failed while reading: \(HTTPClientError.systemText(errno))")
            }
        }
    }
}
