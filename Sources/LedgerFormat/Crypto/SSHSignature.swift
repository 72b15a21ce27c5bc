/// OpenSSH SSHSIG signatures (PROTOCOL.sshsig), the form git uses for `gpg.format=ssh` commits.
///
/// Only Ed25519 with SHA-512 is produced or accepted: that is what the ledger's writer makes and
/// what ssh-keygen makes for ed25519 keys.
public struct SSHSignature: Sendable, Equatable {
    public static let armorLabel = "SSH SIGNATURE"
    static let magic = Array("SSHSIG".utf8)

    public let publicKey: Ed25519.PublicKey
    public let namespace: String
    public let hashAlgorithm: String
    public let signature: [UInt8]

    /// Signs `message` for `namespace` (git uses `git`).
    public static func sign(_ message: some Collection<UInt8>, namespace: String, with key: Ed25519.PrivateKey)
        -> SSHSignature
    {
        let signed = signedData(message, namespace: namespace, hashAlgorithm: "sha512")
        return SSHSignature(
            publicKey: key.publicKey, namespace: namespace, hashAlgorithm: "sha512",
            signature: key.signature(for: signed))
    }

    /// The same SSHSIG, signed by any ``CommitSigner`` (a key in memory, or an ssh-agent).
    public static func sign(_ message: some Collection<UInt8>, namespace: String, by signer: any CommitSigner)
        throws(SigningError) -> SSHSignature
    {
        let signed = signedData(message, namespace: namespace, hashAlgorithm: "sha512")
        return SSHSignature(
            publicKey: signer.publicKey, namespace: namespace, hashAlgorithm: "sha512",
            signature: try signer.ed25519Signature(over: signed))
    }

    /// The binary SSHSIG blob.
    public var blob: [UInt8] {
        var writer = SSHWireWriter()
        writer.writeRaw(Self.magic)
        writer.writeUInt32(1)
        writer.writeString(OpenSSHKey.publicKeyBlob(publicKey))
        writer.writeString(namespace)
        writer.writeString([UInt8]())
        writer.writeString(hashAlgorithm)
        var inner = SSHWireWriter()
        inner.writeString(OpenSSHKey.keyType)
        inner.writeString(signature)
        writer.writeString(inner.bytes)
        return writer.bytes
    }

    /// The armored text, without a trailing newline (what `git_commit_create_with_signature` wants:
    /// a trailing newline makes libgit2 write an extra continuation line — notes pitfall 5).
    public var armored: String { SSHArmor.wrap(blob, label: Self.armorLabel, trailingNewline: false) }

    /// Parses one armored SSHSIG.
    public static func parse(armored text: String) throws(LedgerFormatError) -> SSHSignature {
        guard let blob = SSHArmor.unwrap(text, label: armorLabel) else {
            throw LedgerFormatError(.invalidSignature, "not exactly one armored SSH signature")
        }
        return try parse(blob: blob)
    }

    /// Parses a binary SSHSIG blob: version 1, an ssh-ed25519 key and signature, nothing left over.
    public static func parse(blob: [UInt8]) throws(LedgerFormatError) -> SSHSignature {
        func bad(_ reason: String) -> LedgerFormatError { LedgerFormatError(.invalidSignature, reason) }
        var reader = SSHWireReader(blob)
        guard reader.readRaw(magic.count) == magic else { throw bad("missing SSHSIG magic") }
        guard reader.readUInt32() == 1 else { throw bad("unsupported SSHSIG version") }
        guard let keyBlob = reader.readString() else { throw bad("truncated public key") }
        let key = try OpenSSHKey.parsePublicKeyBlob(keyBlob)
        guard let namespace = reader.readString(), let reserved = reader.readString(),
            let hash = reader.readString(), let signatureBlob = reader.readString(), reader.isAtEnd
        else { throw bad("truncated or over-long SSHSIG blob") }
        guard reserved.isEmpty else { throw bad("non-empty reserved field") }
        var inner = SSHWireReader(signatureBlob)
        guard inner.readString() == Array(OpenSSHKey.keyType.utf8), let raw = inner.readString(), raw.count == 64,
            inner.isAtEnd
        else { throw bad("not an ssh-ed25519 signature") }
        return SSHSignature(
            publicKey: key, namespace: String(decoding: namespace, as: UTF8.self),
            hashAlgorithm: String(decoding: hash, as: UTF8.self), signature: raw)
    }

    /// Whether this signature is valid over `message` for `namespace`. The key is the one the
    /// blob names; whether that key is *allowed* is the caller's decision.
    public func isValid(for message: some Collection<UInt8>, namespace expectedNamespace: String) -> Bool {
        guard namespace == expectedNamespace, hashAlgorithm == "sha512" || hashAlgorithm == "sha256" else {
            return false
        }
        let signed = Self.signedData(message, namespace: namespace, hashAlgorithm: hashAlgorithm)
        return publicKey.isValidSignature(signature, for: signed)
    }

    private static func signedData(_ message: some Collection<UInt8>, namespace: String, hashAlgorithm: String)
        -> [UInt8]
    {
        let digest = hashAlgorithm == "sha512" ? SHA256.sha512Digest(message) : SHA256.hash(message).bytes
        var writer = SSHWireWriter()
        writer.writeRaw(magic)
        writer.writeString(namespace)
        writer.writeString([UInt8]())
        writer.writeString(hashAlgorithm)
        writer.writeString(digest)
        return writer.bytes
    }
}
