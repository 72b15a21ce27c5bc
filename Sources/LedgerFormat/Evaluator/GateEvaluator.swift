/// The backend's gate answer (reference §4.3 `gate_check`, profile §5.2) for one identity or device
/// binding at time T, over verified ledger facts: pure, with lookups injected.
public enum GateEvaluator {
    /// What the gate knows about the session and the device.
    public struct Input: Sendable {
        public var binding: WireString
        public var facts: [VerdictFact]
        public var revocations: [DesignationRevocation.Effect] = []
        /// The grants redeemed (``GrantRedemption``): `facts` then holds the verdicts of every binding a
        /// recovery moves into ``binding``.
        public var redemptions: [GrantRedemption.Effect] = []
        /// The bits Apple reports for the device (default: the ledger's last successful write).
        public var appleBits: DeviceBits
        public var at: Instant
        /// The identity presenting the session (`--user`), when known.
        public var user: WireString?
        /// That identity's mandates on this binding.
        public var userMandates: [Mandate] = []

        public init(binding: WireString, facts: [VerdictFact], appleBits: DeviceBits, at: Instant) {
            self.binding = binding
            self.facts = facts
            self.appleBits = appleBits
            self.at = at
        }
    }

    /// Lookups the answer needs beyond the facts: full verdicts (ban state, notices) and class terms.
    public struct Lookup {
        public var verdict: (ContentAddress) -> Verdict?
        public var mandate: (ContentAddress) -> Mandate?
        public var manifest: (ContentAddress) -> AuthorityManifest?

        public init(
            verdict: @escaping (ContentAddress) -> Verdict?, mandate: @escaping (ContentAddress) -> Mandate?,
            manifest: @escaping (ContentAddress) -> AuthorityManifest?
        ) {
            self.verdict = verdict
            self.mandate = mandate
            self.manifest = manifest
        }

        /// The manifest a verdict's mandate consented to.
        func manifest(for verdict: Verdict) -> AuthorityManifest? {
            mandate(verdict.mandateRef).flatMap { manifest($0.manifestHash) }
        }
    }

    public struct Answer: Sendable {
        public let result: GateResult
        /// The bits the rules intend at T and what governs them.
        public let intended: DeviceFold.Result
        /// The write the backend would make now (nil: the device already holds the intended bits).
        public let write: DeviceBits?
        /// A rule that routed the answer (`new-holder-fast-path`), if any.
        public let route: String?
        public let newHolderUrl: String?
        /// Nonconformities worth a warning (a ban without recourse, profile §8.10).
        public let warnings: [String]
        /// One paragraph saying why.
        public let explanation: String
    }

    /// The new-holder fast path's rule name (profile §8.1).
    public static let newHolderRule = "new-holder-fast-path"

    public static func answer(_ input: Input, lookup: Lookup) -> Answer {
        let intended = DeviceFold.evaluate(
            input.facts, revocations: input.revocations, redemptions: input.redemptions, on: input.binding,
            at: input.at)
        let hasVerdicts = input.facts.contains { $0.knownAt <= input.at }
        // Reference §4.3 step 4: effective bits are the intended ones once any verdict exists, else Apple's.
        let effective = hasVerdicts ? intended.bits : input.appleBits
        let write = hasVerdicts && intended.bits != input.appleBits ? intended.bits : nil
        var warnings: [String] = []

        if effective.banned {
            // Only a ban that accuses the presenting identity answers `banned`: a ban of another
            // identity on a shared device is unresolvable state for this one (profile §5.2).
            let accusing = intended.inForceBans.filter { ban in input.user.map { ban.accusedKeys.contains($0) } ?? true
            }
            if let ban = accusing.last, let verdict = lookup.verdict(ban.ref) {
                let state = BanState(governing: verdict)
                if state.appealUrl == nil {
                    warnings.append(
                        "the ban carries no appealUrl: a ban without a usable appeal path is nonconforming (profile §8.10)"
                    )
                }
                if state.newHolderUrl == nil {
                    warnings.append(
                        "the ban carries no newHolderUrl: a ban without a new-holder path is nonconforming (profile §8.10)"
                    )
                }
                let until = verdict.banExpires.map { "until \($0)" } ?? "permanently"
                return Answer(
                    result: .banned(state), intended: intended, write: write, route: nil, newHolderUrl: nil,
                    warnings: warnings,
                    explanation:
                        "Banned \(until) by verdict \(ban.ref.hex.prefix(16))… of \(ban.authority) (case \(ban.caseId), "
                        + "decided \(ban.decidedAt), in force since \(ban.executeAfter?.description ?? "?")). The app refuses "
                        + "service and shows the authority contact, the appeal path and the new-holder path.")
            }
            // Bits say banned, but no verdict resolves this identity (profile §5.2 "unresolvable state"):
            // no ban in force, or only bans of other identities on this device.
            let fresh = input.userMandates.sorted { $0.acceptedAt < $1.acceptedAt }.last
            let accused = Set(input.facts.flatMap(\.accusedKeys))
            if let fresh, let user = input.user, !accused.contains(user), fresh.acceptedAt <= input.at {
                // Profile §8.1: a fresh mandate from an identity unrelated to the banned identity routes the
                // gate to the new-holder path instead of a plain ban.
                let url = lookup.manifest(fresh.manifestHash)?.newHolderAppeal
                return Answer(
                    result: .checkRequired(.reidentificationRequired), intended: intended, write: write,
                    route: newHolderRule, newHolderUrl: url, warnings: warnings,
                    explanation: "The device's banned bit is set, but \(user) is not accused by any verdict on "
                        + "\(input.binding) and holds a fresh mandate (accepted \(fresh.acceptedAt)): the gate routes it "
                        + "to the new-holder path (profile §8.1) rather than a plain ban.")
            }
            return Answer(
                result: .checkRequired(.reidentificationRequired), intended: intended, write: write, route: nil,
                newHolderUrl: nil, warnings: warnings,
                explanation: "The device's banned bit is set, but no verdict in the ledger resolves this identity: the "
                    + "gate answers reidentificationRequired (profile §5.2).")
        }
        if effective.caseOpen {
            let notices = intended.openCases.compactMap { fact -> CaseNotice? in
                guard let verdict = lookup.verdict(fact.ref), let manifest = lookup.manifest(for: verdict),
                    let terms = manifest.violationClass(verdict.classId)
                else { return nil }
                return CaseNotice(projecting: verdict, terms: terms)
            }
            let cases = intended.openCases.map {
                "\($0.caseId) (\($0.authority), decide by \($0.decisionDeadline?.description ?? "?"))"
            }
            return Answer(
                result: .caseOpen(notices), intended: intended, write: write, route: nil, newHolderUrl: nil,
                warnings: warnings,
                explanation: hasVerdicts
                    ? "Case open: \(cases.joined(separator: "; ")). The app operates normally and shows the open case."
                    : "The device's case-open bit is set but no verdict on this binding explains it; the app shows no notice."
            )
        }
        var because = "No ban is in force and no case is open"
        if intended.appliedRules.contains(.decisionDeadlineDefault) {
            because += " (a blown decision deadline dismissed an open case)"
        }
        if intended.appliedRules.contains(.designationRevocation) {
            because += " (a designation revocation cleared marks)"
        }
        if intended.authorizedBy == EvaluatorRule.expiry.rawValue { because += " (the last ban expired)" }
        return Answer(
            result: .clear, intended: intended, write: write, route: nil, newHolderUrl: nil, warnings: warnings,
            explanation: because + ": the gate answers clear.")
    }
}
