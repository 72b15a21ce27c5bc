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
        public let authority: WireString
        public let effectiveAt: Instant
        /// When the vendor recorded the determination (the replay only applies it from then on).
        public let determinedAt: Instant

        public init(authority: WireString, effectiveAt: Instant, determinedAt: Instant) {
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

extension DesignationRevocation {
    /// Whether `determination` is justified by the trigger records it cites (onym-wire §9: the two
    /// bounded, auditable triggers). Returns why not, or nil when justified.
    ///
    /// * `authority-compromise`: a cited compromise report of the same authority, reported no later
    ///   than the determination, whose compromise time is the revocation's effective time.
    /// * `unreachable`: cited status attempts to the authority, all unanswered, spanning at least
    ///   the unreachability window (default: twice the longest decision deadline of the authority's
    ///   manifests), with no answered attempt in between, the effective time no earlier than the last.
    public static func unjustified(
        _ determination: RevocationDetermination, reports: [ContentAddress: CompromiseReport],
        attempts: [ContentAddress: StatusAttempt], allAttempts: [StatusAttempt], manifests: [AuthorityManifest]
    ) -> String? {
        switch determination.trigger {
        case .authorityCompromise:
            let cited = determination.evidence.compactMap { reports[$0] }.filter {
                $0.authority == determination.authority
            }
            guard let report = cited.first else {
                return "cites no compromise report of \(determination.authority) the ledger holds"
            }
            guard report.reportedAt <= determination.determinedAt else {
                return
                    "determined at \(determination.determinedAt), before the compromise was reported (\(report.reportedAt))"
            }
            guard determination.effectiveAt == report.compromisedAt else {
                return
                    "effective at \(determination.effectiveAt), but the reported compromise time is \(report.compromisedAt)"
            }
            return nil
        case .unreachable:
            guard determination.evidence.allSatisfy({ attempts[$0] != nil }) else {
                return "cites status attempts the ledger does not hold"
            }
            let cited = determination.evidence.compactMap { attempts[$0] }.sorted { $0.attemptedAt < $1.attemptedAt }
            guard cited.allSatisfy({ $0.authority == determination.authority && !$0.answered }),
                let first = cited.first, let last = cited.last
            else {
                return "cites attempts that were answered or addressed to another authority"
            }
            let windowDays =
                manifests.filter { $0.componentId == determination.authority }
                .map(defaultUnreachabilityDays).max() ?? 0
            guard windowDays > 0 else {
                return "no manifest of \(determination.authority) declares a decision deadline"
            }
            guard last.attemptedAt.seconds - first.attemptedAt.seconds >= windowDays * 86_400 else {
                return "the unanswered attempts span less than the \(windowDays)-day unreachability window"
            }
            if let answered = allAttempts.first(where: {
                $0.authority == determination.authority && $0.answered && $0.attemptedAt >= first.attemptedAt
                    && $0.attemptedAt <= last.attemptedAt
            }) {
                return "an attempt at \(answered.attemptedAt), inside the window, was answered"
            }
            guard determination.effectiveAt >= last.attemptedAt else {
                return "effective at \(determination.effectiveAt), before the last unanswered attempt"
            }
            return nil
        }
    }
}
