/// Designation revocation (onym-wire §9, Moderation.md §5.7; profile §6 item 4, §8.11).
///
/// > An interface must revoke a designation on either of two bounded, auditable triggers: (1) the
/// > authority reports its own compromise, with a compromise time; or (2) signed status attempts
/// > remain unanswered for the declared unreachability window (default: twice the manifest's longest
/// > decision deadline). […] Then open cases dismiss and clear; existing bans continue only while a
/// > living forum can hear a claim against them — a declared external `appellate` in the manifest
/// > acts as successor-of-record; a ban with no surviving forum clears.
///
/// From the revocation's effective time on, the revoked authority's open cases are closed, its bans
/// clear unless its manifest names an external appellate forum, and verdicts it decided at or after
/// the effective time are not executed (an authority whose designation is revoked — or whose key
/// was compromised from that time — no longer speaks for the interface).
public enum DesignationRevocation {
    public static let rule = EvaluatorRule.designationRevocation

    /// One revocation in force: which authority, from when.
    public struct Effect: Sendable, Equatable {
        public let authority: String
        public let effectiveAt: Instant
        /// When the vendor recorded the determination (the replay only applies it from then on).
        public let determinedAt: Instant

        public init(authority: String, effectiveAt: Instant, determinedAt: Instant) {
            self.authority = authority
            self.effectiveAt = effectiveAt
            self.determinedAt = determinedAt
        }

        /// Whether this revocation is known and effective at `time`.
        public func applies(at time: Instant) -> Bool { determinedAt <= time && effectiveAt <= time }
    }

    /// The default unreachability window: twice the manifest's longest decision deadline.
    public static func defaultUnreachabilityDays(_ manifest: AuthorityManifest) -> Int64 {
        2 * (manifest.classes.map(\.decisionDeadlineDays).max() ?? 0)
    }
}
