/// The names of the rules that can govern a write, as they appear in a write-log entry's
/// `authorizedBy` (profile §4 requirement 2: every write is logged against the verdict hash or the
/// expiry/deadline/revocation rule that authorized it).
public enum EvaluatorRule: String, Sendable, CaseIterable {
    /// Reference: an expired ban was the last contributor (lazy expiry, profile §6).
    case expiry
    /// Reference: the initial default when no verdict contributed.
    case reconciliation
    /// Profile §8.11, §6 item 4; onym-wire §9: an open case whose decision deadline passed without a
    /// terminal verdict is dismissed and its mark cleared. See ``DecisionDeadlineDefault``.
    case decisionDeadlineDefault = "decision-deadline-default"
    /// Profile §6 item 4, §8.11; onym-wire §9: the interface revoked the authority's designation.
    /// See ``DesignationRevocation``.
    case designationRevocation = "designation-revocation"
}
