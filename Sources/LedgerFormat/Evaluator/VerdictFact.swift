/// What the evaluator needs to know about one received verdict: the signed facts, when the vendor
/// received it, and the terms of its consented manifest that rules depend on.
///
/// Compact on purpose (no JSON): the verifier keeps one per verdict while it replays a ledger. A class, of
/// constants only: the fold copies a binding's facts into arrays, dictionaries and sorted orders at every
/// write it judges, and a copy is then one reference, not five and ~250 bytes. Equal when every field is.
public final class VerdictFact: Sendable, Equatable {
    public let ref: ContentAddress
    public let caseId: WireString
    public let authority: WireString
    public let deviceBinding: WireString
    public let disposition: Verdict.Disposition
    public let decidedAt: Instant
    public let executeAfter: Instant?
    public let banExpires: Instant?
    /// When the vendor received the verdict (its receipt): the fold only sees verdicts received by T.
    public let receivedAt: Instant
    /// For an open-case verdict: when the case must be decided — the verdict's own signed
    /// `decisionDeadline`, else `decidedAt` + the class's `decisionDeadline` from the consented manifest;
    /// never before the verdict's own `decidedAt` (a deadline cannot pass before the case opened).
    public let decisionDeadline: Instant?
    /// The consented manifest's `appellate`: an external forum (`onym:component:…`, not the issuing
    /// authority) is the successor-of-record that keeps a ban alive after designation revocation.
    public let externalAppellate: WireString?
    /// The accused identities (for the new-holder fast path).
    public let accusedKeys: [WireString]

    public static func == (left: VerdictFact, right: VerdictFact) -> Bool {
        left === right
            || (left.ref == right.ref && left.caseId == right.caseId && left.authority == right.authority
                && left.deviceBinding == right.deviceBinding && left.disposition == right.disposition
                && left.decidedAt == right.decidedAt && left.executeAfter == right.executeAfter
                && left.banExpires == right.banExpires && left.receivedAt == right.receivedAt
                && left.decisionDeadline == right.decisionDeadline && left.externalAppellate == right.externalAppellate
                && left.accusedKeys == right.accusedKeys)
    }

    public init(verdict: Verdict, receivedAt: Instant, manifest: AuthorityManifest?) {
        ref = verdict.ref
        caseId = verdict.caseId
        authority = verdict.authority
        deviceBinding = verdict.deviceBinding
        disposition = verdict.disposition
        decidedAt = verdict.decidedAt
        executeAfter = verdict.executeAfter
        banExpires = verdict.banExpires
        self.receivedAt = receivedAt
        accusedKeys = verdict.accusedKeys
        if verdict.disposition == .openCase {
            if let signed = verdict.decisionDeadline {
                decisionDeadline = max(signed, verdict.decidedAt)
            } else if let terms = manifest?.violationClass(verdict.classId) {
                decisionDeadline = verdict.decidedAt.adding(days: terms.decisionDeadlineDays)
            } else {
                decisionDeadline = nil
            }
        } else {
            decisionDeadline = nil
        }
        if let appellate = manifest?.appellate, appellate.hasBytePrefix("onym:component:"),
            appellate != verdict.authority
        {
            externalAppellate = appellate
        } else {
            externalAppellate = nil
        }
    }

    /// A fact as remembered in local state (the replay snapshot), field by field.
    public init(
        ref: ContentAddress, caseId: WireString, authority: WireString, deviceBinding: WireString,
        disposition: Verdict.Disposition,
        decidedAt: Instant, executeAfter: Instant?, banExpires: Instant?, receivedAt: Instant,
        decisionDeadline: Instant?, externalAppellate: WireString?, accusedKeys: [WireString]
    ) {
        self.ref = ref
        self.caseId = caseId
        self.authority = authority
        self.deviceBinding = deviceBinding
        self.disposition = disposition
        self.decidedAt = decidedAt
        self.executeAfter = executeAfter
        self.banExpires = banExpires
        self.receivedAt = receivedAt
        self.decisionDeadline = decisionDeadline
        self.externalAppellate = externalAppellate
        self.accusedKeys = accusedKeys
    }

    /// When a ban takes effect: its `executeAfter` — reference §4.3, "in force = `executeAfter` present,
    /// parseable and ≤ now" — once the vendor has it (``knownAt``; the fold sees only verdicts known by
    /// T). Nil for other dispositions and for a ban without `executeAfter` (never executes).
    public var banStartsAt: Instant? {
        guard disposition == .ban else { return nil }
        return executeAfter
    }

    /// When the vendor may act on the verdict: its receipt (docs/DECISIONS.md F1). The reference
    /// executes a verdict when it arrives — validation lets `decidedAt` run up to 300 s ahead of the
    /// receiving clock (reference §4.1 step 2) and the fold walks every stored verdict (§4.3) — so an
    /// honest write at the receipt instant already follows it; only a ban waits, for its `executeAfter`.
    public var knownAt: Instant { receivedAt }

    /// The case this verdict belongs to: case ids are the authority's, so two authorities' cases
    /// never mix.
    public var caseKey: CaseKey { CaseKey(authority: authority, caseId: caseId) }

    /// A case, named by its authority and the authority's case id.
    public struct CaseKey: Hashable, Sendable {
        public let authority: WireString
        public let caseId: WireString

        public init(authority: WireString, caseId: WireString) {
            self.authority = authority
            self.caseId = caseId
        }
    }
}

/// The two DeviceCheck bits (profile §4): bit0 case-open, bit1 banned.
public struct DeviceBits: Equatable, Sendable, CustomStringConvertible {
    public var caseOpen: Bool
    public var banned: Bool

    public init(caseOpen: Bool, banned: Bool) {
        self.caseOpen = caseOpen
        self.banned = banned
    }

    public static let clear = DeviceBits(caseOpen: false, banned: false)

    /// `bit1 bit0` as the CLI writes them: `00`, `01` (case-open), `10` (banned), `11`.
    public var description: String { "\(banned ? 1 : 0)\(caseOpen ? 1 : 0)" }

    public init?(_ text: String) {
        switch text {
        case "00": self = .clear
        case "01": self.init(caseOpen: true, banned: false)
        case "10": self.init(caseOpen: false, banned: true)
        case "11": self.init(caseOpen: true, banned: true)
        default: return nil
        }
    }
}
