/// Whoever signs ledger commits: a private key in memory, or an ssh-agent holding it (keys
/// the way git users keep them).
public protocol CommitSigner: Sendable {
    var publicKey: Ed25519.PublicKey { get }
    /// An Ed25519 signature (64 bytes) over exactly `message`.
    func ed25519Signature(over message: [UInt8]) throws(SigningError) -> [UInt8]
}

/// A signature that could not be made (the agent is unreachable, or does not hold the key).
public struct SigningError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) { self.description = description }
}

extension Ed25519.PrivateKey: CommitSigner {
    public func ed25519Signature(over message: [UInt8]) throws(SigningError) -> [UInt8] { signature(for: message) }
}
