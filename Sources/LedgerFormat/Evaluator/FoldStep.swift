/// One effect on a device binding's marks, placed on the time line: what the fold reports as
/// `authorizedBy` when no ban is in force and no case is open (the latest step at or before T).
///
/// Steps at the same instant happen in a fixed order (docs/DECISIONS.md, "The fold, rule by rule",
/// rule F9): verdict decisions first (in decision order), then bans taking effect, then bans ending
/// by expiry, then decision-deadline defaults, then designation revocations, then bans ended by an unban
/// grant's redemption (F12), in redemption order (`redeemedAt`, then `grantRef`).
public struct FoldStep: Comparable, Sendable {
    public enum Kind: Int, Sendable, Comparable {
        case decision = 0
        case banStart = 1
        case banExpiry = 2
        case deadlineDefault = 3
        case revocation = 4
        case grantRedemption = 5

        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public let instant: Instant
    public let kind: Kind
    /// The decision-order position of the verdict the step belongs to (0 for a revocation; for an unban's
    /// step, the unban's position in redemption order).
    public let order: Int
    /// A verdictRef (hex) or an ``EvaluatorRule`` name.
    public var label: String {
        switch source {
        case .verdict(let ref): ref.hex
        case .rule(let name): name
        }
    }

    /// What ``label`` names, a verdict's ref kept unrendered: most steps are only compared, and only the
    /// one a write is authorized by is ever spelt out.
    private enum Source: Sendable {
        case verdict(ContentAddress)
        /// Any other label as it is given: a rule's name, an unban's label, or none (`""`).
        case rule(String)
    }
    private let source: Source

    public init(instant: Instant, kind: Kind, order: Int, label: String) {
        self.instant = instant
        self.kind = kind
        self.order = order
        self.source = .rule(label)
    }

    /// A step a verdict contributed: its label is the verdict's ref.
    init(instant: Instant, kind: Kind, order: Int, verdict: ContentAddress) {
        self.instant = instant
        self.kind = kind
        self.order = order
        self.source = .verdict(verdict)
    }

    public static func < (lhs: FoldStep, rhs: FoldStep) -> Bool {
        (lhs.instant, lhs.kind, lhs.order) < (rhs.instant, rhs.kind, rhs.order)
    }

    public static func == (lhs: FoldStep, rhs: FoldStep) -> Bool {
        (lhs.instant, lhs.kind, lhs.order) == (rhs.instant, rhs.kind, rhs.order)
    }
}
