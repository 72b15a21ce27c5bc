public import LedgerFormat

/// The commit's SSH signature as found in its `gpgsig` header.
public enum CommitSignature: Sendable {
    case missing
    /// Present but not exactly one well-formed SSHSIG armor.
    case malformed(String)
    case parsed(SSHSignature, signedData: [UInt8], isValid: Bool)
}
