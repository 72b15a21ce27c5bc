public import LedgerFormat

/// The auditor's pinned root of trust: the keys allowed to sign a ledger's first commit.
///
/// Given as an `ssh-ed25519 AAAA…` public key (or a `.pub` file), an allowed-signers file, or a key
/// fingerprint (`SHA256:…`, as `ssh-keygen -l` prints it). A fingerprint pins the key without the
/// auditor holding it: the first commit's signature carries the key, and its fingerprint must match.
public struct TrustRoot: Sendable, Equatable {
    public let keys: [Ed25519.PublicKey]
    public let fingerprints: [String]

    public init(keys: [Ed25519.PublicKey] = [], fingerprints: [String] = []) {
        self.keys = keys
        self.fingerprints = fingerprints
    }

    /// Parses the text of a `--trust` argument or of the file it names.
    public static func parse(_ text: String) throws(LedgerFormatError) -> TrustRoot {
        let trimmed = String(text.trimmingWhitespace)
        if trimmed.hasPrefix("SHA256:") {
            // OpenSSH's form: SHA256: and the unpadded base64 of 32 bytes (43 characters).
            let digest = trimmed.dropFirst("SHA256:".count)
            guard digest.count == 43, Base64.decode(String(digest) + "=")?.count == 32 else {
                throw LedgerFormatError(
                    .invalidSSHKey, "a key fingerprint is SHA256: and 43 base64 characters, as ssh-keygen -lf prints it"
                )
            }
            return TrustRoot(fingerprints: [trimmed])
        }
        if trimmed.hasPrefix(OpenSSHKey.keyType + " ") && !trimmed.contains("\n") {
            return TrustRoot(keys: [try OpenSSHKey.parsePublicKey(trimmed)])
        }
        let signers = try AllowedSigners(text: text)
        guard !signers.keys.isEmpty else {
            throw LedgerFormatError(.invalidSSHKey, "the allowed-signers file lists no key")
        }
        return TrustRoot(keys: signers.keys)
    }

    public func admits(_ key: Ed25519.PublicKey) -> Bool {
        keys.contains(key) || fingerprints.contains(OpenSSHKey.fingerprint(key))
    }

    public var description: String {
        (keys.map { OpenSSHKey.fingerprint($0) } + fingerprints).joined(separator: ", ")
    }
}
