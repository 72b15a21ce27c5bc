/// The interface's per-authority countersigning keys (reference §2.2, `apple/src/countersigning.rs`).
///
/// Epoch 0 is the root seed itself. Epoch n ≥ 1 uses the seed
/// SHA-256("onym:moderation:interface-countersigning:v1" ‖ root ‖ authority ‖ 0x00 ‖ u32be(n)).
public enum InterfaceKeyDerivation {
    public static let domain = "onym:moderation:interface-countersigning:v1"

    /// The countersigning seed for `authority` at `epoch`.
    public static func seed(root: [UInt8], authority: String, epoch: UInt32) -> [UInt8] {
        precondition(root.count == 32, "the interface root seed is 32 bytes")
        guard epoch > 0 else { return root }
        var preimage = Array(domain.utf8)
        preimage += root
        preimage += Array(authority.utf8)
        preimage.append(0)
        preimage += [
            UInt8(epoch >> 24 & 0xFF), UInt8(epoch >> 16 & 0xFF), UInt8(epoch >> 8 & 0xFF), UInt8(epoch & 0xFF),
        ]
        return SHA256.hash(preimage).bytes
    }

    public static func privateKey(root: [UInt8], authority: String, epoch: UInt32) -> Ed25519.PrivateKey {
        Ed25519.PrivateKey(seed: seed(root: root, authority: authority, epoch: epoch))!
    }
}
