/// The bytes a user signs for an enroll, gate-check or recover session (reference §2.1,
/// `apple/src/payload.rs`, byte-identical to iOS `SignedSessionPayload`): five fields, each a
/// big-endian u32 byte length followed by the bytes.
public enum SessionPayload {
    public enum Context: String, Sendable {
        case enroll = "onym-moderation-enroll-v1"
        case gate = "onym-moderation-gate-v1"
        case recover = "onym-moderation-recover-v1"
    }

    /// - Parameters:
    ///   - deviceToken: the raw decoded DeviceCheck token; nil and empty are identical by design.
    ///   - timestamp: exactly as transmitted.
    ///   - reference: gate: the mandateRef; recover: the grantRef; enroll: ignored (empty).
    public static func bytes(
        context: Context, deviceToken: [UInt8]?, userKey: String, timestamp: String, reference: String? = nil
    ) -> [UInt8] {
        var writer = SSHWireWriter()
        writer.writeString(context.rawValue)
        writer.writeString(deviceToken ?? [])
        writer.writeString(userKey)
        writer.writeString(timestamp)
        writer.writeString(context == .enroll ? "" : reference ?? "")
        return writer.bytes
    }
}
