#if canImport(Glibc)
    import Glibc
#endif

/// Signs through a running ssh-agent (OpenSSH PROTOCOL.agent): the private key never leaves the agent,
/// so passphrase-protected keys and hardware-backed agents work as they do for git's own SSH signing.
///
/// One `SSH_AGENTC_SIGN_REQUEST` (13) per signature — `string key blob, string data, uint32 flags` — answered
/// by `SSH_AGENT_SIGN_RESPONSE` (14) with `string signature` (`string "ssh-ed25519", string 64 bytes`),
/// or `SSH_AGENT_FAILURE` (5) when the agent does not hold the key.
public struct SSHAgentSigner: CommitSigner {
    public let publicKey: Ed25519.PublicKey
    /// The agent's socket (`SSH_AUTH_SOCK`).
    public let socketPath: String

    static let signRequest: UInt8 = 13
    static let signResponse: UInt8 = 14
    /// Largest agent reply read (an Ed25519 signature reply is under 100 bytes).
    static let maxReply = 64 * 1024

    public init(publicKey: Ed25519.PublicKey, socketPath: String) {
        self.publicKey = publicKey
        self.socketPath = socketPath
    }

    public func ed25519Signature(over message: [UInt8]) throws(SigningError) -> [UInt8] {
        var body = SSHWireWriter()
        body.writeRaw([Self.signRequest])
        body.writeString(OpenSSHKey.publicKeyBlob(publicKey))
        body.writeString(message)
        body.writeUInt32(0)
        let reply = try exchange(body.bytes)
        guard reply.first == Self.signResponse else {
            throw SigningError(
                "the ssh-agent at \(socketPath) did not sign with \(OpenSSHKey.fingerprint(publicKey)) "
                    + "(is the key added? ssh-add -l lists what it holds)")
        }
        var reader = SSHWireReader(Array(reply.dropFirst()))
        guard let blob = reader.readString() else { throw SigningError("the ssh-agent sent a malformed reply") }
        var signature = SSHWireReader(blob)
        guard let type = signature.readString(), type == Array(OpenSSHKey.keyType.utf8),
            let bytes = signature.readString(), bytes.count == 64
        else { throw SigningError("the ssh-agent's signature is not an ssh-ed25519 signature") }
        guard publicKey.isValidSignature(bytes, for: message) else {
            throw SigningError("the ssh-agent's signature does not verify under \(OpenSSHKey.fingerprint(publicKey))")
        }
        return bytes
    }

    /// Sends one length-prefixed message and reads one length-prefixed reply.
    private func exchange(_ message: [UInt8]) throws(SigningError) -> [UInt8] {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SigningError("cannot create a socket for the ssh-agent") }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(socketPath.utf8)
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw SigningError("the ssh-agent socket path is too long: \(socketPath)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path + [0]) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            throw SigningError("cannot reach the ssh-agent at \(socketPath) (\(String(cString: strerror(errno))))")
        }
        let framed = withUnsafeBytes(of: UInt32(message.count).bigEndian, Array.init) + message
        guard Self.writeAll(fd, framed) else { throw SigningError("the ssh-agent closed the connection") }
        guard let header = Self.readExactly(fd, 4) else { throw SigningError("the ssh-agent sent no reply") }
        let length = header.reduce(0) { $0 << 8 | Int($1) }
        guard length > 0, length <= Self.maxReply, let reply = Self.readExactly(fd, length) else {
            throw SigningError("the ssh-agent sent a malformed reply")
        }
        return reply
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + sent, bytes.count - sent) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return false }
            sent += result
        }
        return true
    }

    private static func readExactly(_ fd: Int32, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var received = 0
        while received < count {
            let result = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + received, count - received) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return nil }
            received += result
        }
        return bytes
    }
}
