import CLibSSL

#if canImport(Glibc)
    import Glibc
#endif

/// TLS over a ``SocketStream`` with OpenSSL's libssl: the system's trust store (`SSL_CERT_FILE` and
/// `SSL_CERT_DIR` honoured), the peer's certificate verified, and its name checked against the host the URL
/// names (SNI sent for a DNS name). Verification cannot be turned off. OpenSSL only computes: it reads and
/// writes memory buffers, and every byte on the wire passes through the socket stream, so each wait is
/// bounded by the deadline and a closed peer is never a SIGPIPE.
final class TLSStream: HTTPByteStream {
    private let socket: SocketStream
    private let context: OpaquePointer
    private let session: OpaquePointer
    /// What arrived from the server, for OpenSSL to read; and what OpenSSL wrote, to send.
    private let incoming: OpaquePointer
    private let outgoing: OpaquePointer
    private var endOfStream = false

    /// Shakes hands with `host` over `socket` before `deadline`.
    init(over socket: SocketStream, host: String, deadline: HTTPDeadline) throws(HTTPClientError) {
        self.socket = socket
        ERR_clear_error()
        let context = try Self.verifyingContext()
        guard let session = SSL_new(context) else {
            SSL_CTX_free(context)
            throw Self.failure("SSL_new")
        }
        guard let incoming = BIO_new(BIO_s_mem()), let outgoing = BIO_new(BIO_s_mem()) else {
            SSL_free(session)
            SSL_CTX_free(context)
            throw Self.failure("BIO_new")
        }
        SSL_set_bio(session, incoming, outgoing)
        (self.context, self.session, self.incoming, self.outgoing) = (context, session, incoming, outgoing)
        try expectName(host)
        SSL_set_connect_state(session)
        do {
            _ = try exchange(deadline: deadline) { SSL_do_handshake(session) }
        } catch {
            throw refusal(host) ?? error
        }
        // The handshake succeeds only after the verification; this checks it did run, and passed.
        if let refused = refusal(host) { throw refused }
        guard let certificate = SSL_get1_peer_certificate(session) else {
            throw HTTPClientError("\(host) presented no certificate")
        }
        X509_free(certificate)
    }

    /// A context that verifies the peer (`SSL_VERIFY_PEER`) against the default trust store, which
    /// `SSL_CERT_FILE` and `SSL_CERT_DIR` replace, over TLS 1.2 or later. Each session copies the context's
    /// settings when it is made, so they are all set first.
    private static func verifyingContext() throws(HTTPClientError) -> OpaquePointer {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw failure("SSL_CTX_new") }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        guard SSL_CTX_set_default_verify_paths(context) == 1, CLibSSL_CTX_require_tls12(context) == 1 else {
            SSL_CTX_free(context)
            throw failure("the trust store")
        }
        CLibSSL_CTX_ignore_unexpected_eof(context)
        return context
    }

    /// Why the peer's certificate was not accepted, in OpenSSL's words (`X509_verify_cert_error_string`);
    /// nil when it was.
    private func refusal(_ host: String) -> HTTPClientError? {
        let verdict = SSL_get_verify_result(session)
        guard verdict != X509_V_OK else { return nil }
        let reason = X509_verify_cert_error_string(verdict).map { String(cString: $0) } ?? "error \(verdict)"
        return HTTPClientError("the certificate of \(host) does not verify: \(reason)")
    }

    deinit {
        SSL_free(session)  // and both memory buffers with it
        SSL_CTX_free(context)
    }

    /// Checks the certificate names `host`: its IP address for a numeric one, else its DNS name (RFC 6125)
    /// which is also sent as SNI (RFC 6066 §3: "Literal IPv4 and IPv6 addresses are not permitted").
    private func expectName(_ host: String) throws(HTTPClientError) {
        var address = in6_addr()
        let numeric = inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
        if numeric {
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(session), host) == 1 else {
                throw Self.failure("the address \(host)")
            }
        } else {
            guard CLibSSL_set_server_name(session, host) == 1, SSL_set1_host(session, host) == 1 else {
                throw Self.failure("the host name \(host)")
            }
        }
    }

    func write(_ bytes: [UInt8], deadline: HTTPDeadline) throws(HTTPClientError) {
        guard !bytes.isEmpty else { return }
        let session = session
        _ = try exchange(deadline: deadline) {
            bytes.withUnsafeBytes { SSL_write(session, $0.baseAddress, Int32($0.count)) }
        }
    }

    func read(deadline: HTTPDeadline) throws(HTTPClientError) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let session = session
        let count = try exchange(deadline: deadline) {
            chunk.withUnsafeMutableBytes { SSL_read(session, $0.baseAddress, Int32($0.count)) }
        }
        return Array(chunk[..<Int(count)])
    }

    /// Runs `operation` until it completes, sending what it wrote and feeding it what arrives; its
    /// positive result, or 0 at the end of the stream.
    private func exchange(deadline: HTTPDeadline, _ operation: () -> Int32) throws(HTTPClientError) -> Int32 {
        while true {
            ERR_clear_error()
            let result = operation()
            let outcome = SSL_get_error(session, result)
            try flush(deadline: deadline)
            if result > 0 { return result }
            switch outcome {
            case SSL_ERROR_WANT_READ:
                guard !endOfStream else { throw HTTPClientError("the server closed the TLS connection") }
                let bytes = try socket.read(deadline: deadline)
                if bytes.isEmpty {
                    endOfStream = true
                    CLibSSL_BIO_mark_end_of_stream(incoming)
                } else {
                    _ = bytes.withUnsafeBytes { BIO_write(incoming, $0.baseAddress, Int32($0.count)) }
                }
            case SSL_ERROR_WANT_WRITE: continue
            case SSL_ERROR_ZERO_RETURN: return 0
            default: throw Self.failure("TLS")
            }
        }
    }

    /// Sends everything OpenSSL has written.
    private func flush(deadline: HTTPDeadline) throws(HTTPClientError) {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while BIO_ctrl_pending(outgoing) > 0 {
            let count = chunk.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress, Int32($0.count)) }
            guard count > 0 else { return }
            try socket.write(Array(chunk[..<Int(count)]), deadline: deadline)
        }
    }

    /// `what` failed, with OpenSSL's first queued reason.
    private static func failure(_ what: String) -> HTTPClientError {
        let code = ERR_get_error()
        guard code != 0 else { return HTTPClientError("\(what): the TLS connection failed") }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return HTTPClientError("\(what): \(String(decoding: text.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))")
    }
}
