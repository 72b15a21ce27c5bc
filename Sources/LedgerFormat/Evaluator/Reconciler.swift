/// `reconcile --at T`: per device binding, the bits last written, the bits the rules intend at T,
/// and the write the backend would make now — a dry run; nothing is written.
public enum Reconciler {
    public struct Row: Sendable {
        public let binding: WireString
        /// The bits of the binding's last successful write (nil: never written).
        public let lastWritten: DeviceBits?
        public let intended: DeviceFold.Result
        /// The write the backend would make at the device's next session, if any.
        public var write: DeviceBits? {
            let current = lastWritten ?? .clear
            return intended.bits == current ? nil : intended.bits
        }
        /// A ban that expired (or otherwise ended) while the device still carries bit1 — an overdue
        /// clear waiting for the device to come back (profile §8.6, §6 lazy clearing).
        public var isOverdueClear: Bool { (lastWritten?.banned ?? false) && !intended.bits.banned }
    }

    public static func row(
        binding: WireString, facts: [VerdictFact], lastWritten: DeviceBits?,
        revocations: [DesignationRevocation.Effect] = [], redemptions: [GrantRedemption.Effect] = [],
        at time: Instant
    ) -> Row {
        Row(
            binding: binding, lastWritten: lastWritten,
            intended: DeviceFold.evaluate(
                facts, revocations: revocations, redemptions: redemptions, on: binding, at: time))
    }
}
