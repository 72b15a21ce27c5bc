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
    /// Why `entry` is not explained by the rules, or nil when it is.
    public static func unexplained(
        _ entry: WriteLogEntry, facts: [VerdictFact], revocations: [DesignationRevocation.Effect] = []
    ) -> String? {
        let intended = DeviceFold.evaluate(facts, revocations: revocations, at: entry.recordedAt)
        let requested = DeviceBits(caseOpen: entry.caseOpen, banned: entry.banned)
        if requested != intended.bits {
            return "requested bits \(requested) but the rules give \(intended.bits) at \(entry.recordedAtText) "
                + "(governed by \(intended.authorizedBy))"
        }
        if entry.authorizedBy != intended.authorizedBy {
            return "authorizedBy \(entry.authorizedBy.prefix(24)) but the write is governed by \(intended.authorizedBy)"
        }
        return nil
    }
}
