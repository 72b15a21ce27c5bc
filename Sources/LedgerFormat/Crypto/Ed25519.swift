internal import CSodium

/// Ed25519 keys and signatures through libsodium.
///
/// libsodium was chosen over OpenSSL 3.0 for verification because it measured ~1.7× faster here
/// and because its checks match the reference's `verify_strict` (ed25519-dalek): it rejects a
/// non-canonical `S` (≥ L), a small-order `R`, a small-order or non-canonical public key, before
/// the cofactorless equation. See docs/DECISIONS.md "Ed25519 strictness".
public enum Ed25519 {
    /// `sodium_init` once per process.
    private static let initialized: Bool = sodium_init() >= 0

    static func ensureInitialized() {
        precondition(initialized, "libsodium failed to initialize")
    }

    /// A raw 32-byte Ed25519 public key.
    public struct PublicKey: Hashable, Sendable, CustomStringConvertible {
        public let rawRepresentation: [UInt8]

        /// - Returns: nil unless exactly 32 bytes. (Whether the point is acceptable is decided
        ///   at verification, which fails for small-order or non-canonical keys.)
        public init?(rawRepresentation: some Collection<UInt8>) {
            guard rawRepresentation.count == 32 else { return nil }
            self.rawRepresentation = Array(rawRepresentation)
        }

        /// Strict verification of a detached 64-byte signature. Never throws: a wrong length,
        /// a malformed key or a forged signature are all `false`; the policy layer names the failure.
        /// Answered from ``Verifications/current`` when it holds this very verification, and recorded there
        /// when it does not.
        public func isValidSignature(_ signature: some Collection<UInt8>, for message: some Collection<UInt8>) -> Bool {
            Ed25519.ensureInitialized()
            guard signature.count == 64 else { return false }
            let signatureBytes = Array(signature)
            let messageBytes = Array(message)
            guard let verifications = Verifications.current else {
                return Self.verify(signatureBytes, messageBytes, rawRepresentation)
            }
            if let known = verifications.answer(
                key: rawRepresentation, signature: signatureBytes, message: messageBytes)
            {
                return known
            }
            let valid = Self.verify(signatureBytes, messageBytes, rawRepresentation)
            verifications.record(key: rawRepresentation, signature: signatureBytes, message: messageBytes, valid: valid)
            return valid
        }

        private static func verify(_ signatureBytes: [UInt8], _ messageBytes: [UInt8], _ rawRepresentation: [UInt8])
            -> Bool
        {
            let status = withNonNullPointer(signatureBytes) { sig in
                withNonNullPointer(messageBytes) { msg in
                    withNonNullPointer(rawRepresentation) { key in
                        crypto_sign_verify_detached(sig, msg, UInt64(messageBytes.count), key)
                    }
                }
            }
            return status == 0
        }

        /// The `onym:key:<64 hex>` reference form.
        public var onymKey: String { OnymKey.prefix + Hex.encode(rawRepresentation) }
        public var description: String { onymKey }
    }

    /// An Ed25519 private key held as its 32-byte seed (RFC 8032 "secret key").
    public struct PrivateKey: Sendable {
        public let seed: [UInt8]
        public let publicKey: PublicKey
        /// libsodium's 64-byte expanded secret (seed ‖ public key).
        private let expanded: [UInt8]

        /// - Returns: nil unless the seed is exactly 32 bytes.
        public init?(seed: some Collection<UInt8>) {
            guard seed.count == 32 else { return nil }
            Ed25519.ensureInitialized()
            let seedBytes = Array(seed)
            var publicBytes = [UInt8](repeating: 0, count: 32)
            var secretBytes = [UInt8](repeating: 0, count: 64)
            let status = withNonNullPointer(seedBytes) { seedPointer in
                publicBytes.withUnsafeMutableBufferPointer { pk in
                    secretBytes.withUnsafeMutableBufferPointer { sk in
                        crypto_sign_seed_keypair(pk.baseAddress!, sk.baseAddress!, seedPointer)
                    }
                }
            }
            precondition(status == 0, "crypto_sign_seed_keypair failed")
            self.seed = seedBytes
            self.expanded = secretBytes
            self.publicKey = PublicKey(rawRepresentation: publicBytes)!
        }

        /// A fresh random key from the operating system's CSPRNG.
        public static func random() -> PrivateKey {
            Ed25519.ensureInitialized()
            var seed = [UInt8](repeating: 0, count: 32)
            seed.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, 32) }
            return PrivateKey(seed: seed)!
        }

        /// The deterministic RFC 8032 signature of `message`.
        public func signature(for message: some Collection<UInt8>) -> [UInt8] {
            let messageBytes = Array(message)
            var signature = [UInt8](repeating: 0, count: 64)
            let status = withNonNullPointer(messageBytes) { msg in
                signature.withUnsafeMutableBufferPointer { sig in
                    withNonNullPointer(expanded) { sk in
                        crypto_sign_detached(sig.baseAddress!, nil, msg, UInt64(messageBytes.count), sk)
                    }
                }
            }
            precondition(status == 0, "crypto_sign_detached failed")
            return signature
        }
    }
}

/// Calls `body` with a non-null pointer to `bytes`; an empty array gets a pointer to a dummy byte
/// (libsodium's parameters are non-null even when the length is zero).
private func withNonNullPointer<T>(_ bytes: [UInt8], _ body: (UnsafePointer<UInt8>) -> T) -> T {
    if bytes.isEmpty {
        let dummy: [UInt8] = [0]
        return dummy.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
    return bytes.withUnsafeBufferPointer { body($0.baseAddress!) }
}
