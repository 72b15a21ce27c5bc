/// The replay check behind acceptance criterion 4 ("the write log accounts for every call"): each
/// write-log entry's requested bits and `authorizedBy` must be what the rules give for its device
/// binding at its `recordedAt`, from the verdicts the vendor had received by then.
///
/// Failed writes (`outcome` `failed: …`) change nothing on the device, but they were calls to
/// `update_two_bits` all the same, so they must be authorized too.
///
/// Writes the reference backend may legitimately *skip* (a binding whose intended bits already match
/// the device, the different-physical-device case of reference §4.3 step 3) leave no entry, so the
/// replay never asks for a write; it only judges the writes that were made.
public enum WriteReplay {
    /// A write the rules do not explain: what it asked for and what the rules give at its time.
    public struct Mismatch: Sendable {
        public let requested: DeviceBits
        public let intended: DeviceFold.Result
        public let reason: String
    }

    /// The mismatch between `entry` and the rules, or nil when the rules explain it.
    public static func check(
        _ entry: WriteLogEntry, facts: [VerdictFact], revocations: [DesignationRevocation.Effect] = []
    ) -> Mismatch? {
        let intended = DeviceFold.evaluate(facts, revocations: revocations, at: entry.recordedAt)
        let requested = DeviceBits(caseOpen: entry.caseOpen, banned: entry.banned)
        if requested != intended.bits {
            return Mismatch(
                requested: requested, intended: intended,
                reason:
                    "requested bits \(requested) at \(entry.recordedAt.rfc3339) but the rules give \(intended.bits) "
                    + "(governed by \(intended.authorizedBy))")
        }
        if entry.authorizedBy != intended.authorizedBy {
            return Mismatch(
                requested: requested, intended: intended,
                reason:
                    "authorizedBy \(entry.authorizedBy) but the write at \(entry.recordedAt.rfc3339) is governed by "
                    + intended.authorizedBy)
        }
        return nil
    }

    /// Why `entry` is not explained by the rules, or nil when it is.
    public static func unexplained(
        _ entry: WriteLogEntry, facts: [VerdictFact], revocations: [DesignationRevocation.Effect] = []
    ) -> String? {
        check(entry, facts: facts, revocations: revocations)?.reason
    }
}
