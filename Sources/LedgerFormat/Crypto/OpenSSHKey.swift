/// OpenSSH Ed25519 keys: `ssh-ed25519 AAAA…` public lines and unencrypted `openssh-key-v1`
/// private key files (what `ssh-keygen -t ed25519 -N ''` writes; PROTOCOL.key).
public enum OpenSSHKey {
    public static let keyType = "ssh-ed25519"
    private static let privateMagic = Array("openssh-key-v1".utf8) + [0]
    private static let privateLabel = "OPENSSH PRIVATE KEY"

    // MARK: - Public keys

    /// The SSH wire blob of a public key: `string "ssh-ed25519", string key`.
    public static func publicKeyBlob(_ key: Ed25519.PublicKey) -> [UInt8] {
        var writer = SSHWireWriter()
        writer.writeString(keyType)
        writer.writeString(key.rawRepresentation)
        return writer.bytes
    }

    /// `ssh-ed25519 AAAA… [comment]`.
    public static func publicKeyLine(_ key: Ed25519.PublicKey, comment: String? = nil) -> String {
        let line = "\(keyType) \(Base64.encode(publicKeyBlob(key)))"
        guard let comment, !comment.isEmpty else { return line }
        return line + " " + comment
    }

    /// Parses `ssh-ed25519 AAAA… [comment]`, the form of `.pub` files and allowed-signers keys.
    public static func parsePublicKey(_ line: String) throws(LedgerFormatError) -> Ed25519.PublicKey {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 2, fields[0] == keyType else {
            throw LedgerFormatError(.invalidSSHKey, "expected \"ssh-ed25519 AAAA…\"")
        }
        guard let blob = Base64.decode(String(fields[1])) else {
            throw LedgerFormatError(.invalidSSHKey, "the key is not valid base64")
        }
        return try parsePublicKeyBlob(blob)
    }

    /// Parses the SSH wire blob of an Ed25519 public key.
    public static func parsePublicKeyBlob(_ blob: [UInt8]) throws(LedgerFormatError) -> Ed25519.PublicKey {
        var reader = SSHWireReader(blob)
        guard let type = reader.readString(), type == Array(keyType.utf8), let raw = reader.readString(),
            reader.isAtEnd, let key = Ed25519.PublicKey(rawRepresentation: raw)
        else {
            throw LedgerFormatError(.invalidSSHKey, "not an ssh-ed25519 public key blob")
        }
        return key
    }

    /// `SHA256:<unpadded base64>`, the fingerprint `ssh-keygen -l` prints.
    public static func fingerprint(_ key: Ed25519.PublicKey) -> String {
        var encoded = Base64.encode(SHA256.hash(publicKeyBlob(key)).bytes)
        while encoded.hasSuffix("=") { encoded.removeLast() }
        return "SHA256:" + encoded
    }

    // MARK: - Private keys

    /// Reads an unencrypted `openssh-key-v1` Ed25519 private key file.
    /// - Throws: ``LedgerFormatError/Code/invalidSSHKey`` naming what is wrong (encrypted, not
    ///   Ed25519, check bytes differ, public half mismatch…).
    public static func parsePrivateKey(_ text: String) throws(LedgerFormatError) -> Ed25519.PrivateKey {
        func bad(_ reason: String) -> LedgerFormatError { LedgerFormatError(.invalidSSHKey, reason) }
        guard let blob = SSHArmor.unwrap(text, label: privateLabel) else {
            throw bad("not an OpenSSH private key (expected -----BEGIN OPENSSH PRIVATE KEY-----)")
        }
        var reader = SSHWireReader(blob)
        guard reader.readRaw(privateMagic.count) == privateMagic else { throw bad("missing openssh-key-v1 magic") }
        guard let cipher = reader.readString(), let kdf = reader.readString(), reader.readString() != nil else {
            throw bad("truncated key header")
        }
        guard cipher == Array("none".utf8), kdf == Array("none".utf8) else {
            throw bad("the key is encrypted; use an unencrypted key (ssh-keygen -N '')")
        }
        guard reader.readUInt32() == 1 else { throw bad("expected exactly one key in the file") }
        guard let publicBlob = reader.readString() else { throw bad("truncated public key") }
        let publicKey = try parsePublicKeyBlob(publicBlob)
        guard let privateSection = reader.readString(), reader.isAtEnd else { throw bad("truncated private section") }

        var section = SSHWireReader(privateSection)
        guard let check1 = section.readUInt32(), let check2 = section.readUInt32(), check1 == check2 else {
            throw bad("check bytes differ (corrupt or encrypted key)")
        }
        guard section.readString() == Array(keyType.utf8) else { throw bad("the key is not ssh-ed25519") }
        guard let sectionPublic = section.readString(), sectionPublic == publicKey.rawRepresentation else {
            throw bad("the private section's public key differs from the header's")
        }
        guard let secret = section.readString(), secret.count == 64, section.readString() != nil else {
            throw bad("malformed ed25519 secret")
        }
        let padding = Array(section.remaining)
        guard padding.count < 8, padding.enumerated().allSatisfy({ $0.element == UInt8($0.offset + 1) }) else {
            throw bad("malformed padding")
        }
        guard let key = Ed25519.PrivateKey(seed: secret[0..<32]), key.publicKey == publicKey,
            Array(secret[32..<64]) == publicKey.rawRepresentation
        else {
            throw bad("the secret does not match the public key")
        }
        return key
    }

    /// Writes an unencrypted `openssh-key-v1` private key file that ssh-keygen and git accept.
    ///
    /// The check integers are derived from the seed rather than random, so the same seed always
    /// writes the same file (they only detect a wrong passphrase, which an unencrypted key has not).
    public static func privateKeyFile(_ key: Ed25519.PrivateKey, comment: String = "") -> String {
        let check = SHA256.hash(Array("onym-ledger openssh check".utf8) + key.seed).bytes
        let checkInt = check[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var section = SSHWireWriter()
        section.writeUInt32(checkInt)
        section.writeUInt32(checkInt)
        section.writeString(keyType)
        section.writeString(key.publicKey.rawRepresentation)
        section.writeString(key.seed + key.publicKey.rawRepresentation)
        section.writeString(comment)
        var padded = section.bytes
        var pad: UInt8 = 1
        while padded.count % 8 != 0 {
            padded.append(pad)
            pad += 1
        }
        var writer = SSHWireWriter()
        writer.writeRaw(privateMagic)
        writer.writeString("none")
        writer.writeString("none")
        writer.writeString([UInt8]())
        writer.writeUInt32(1)
        writer.writeString(publicKeyBlob(key.publicKey))
        writer.writeString(padded)
        return SSHArmor.wrap(writer.bytes, label: privateLabel, trailingNewline: true)
    }
}
