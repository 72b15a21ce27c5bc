import Foundation
import LedgerTestSupport

@testable import LedgerFormat
import LedgerStore

/// One binding's verdict history in a form small enough to read, shrink and keep as a data file
/// (`Vectors/fold/*.json`): verdicts by disposition, case, class and times, plus revocations. Times
/// are RFC 3339; every verdict is built and signed for real by the fixture authorities below.
struct FoldScenario: Codable, CustomStringConvertible {
    struct VerdictSpec: Codable {
        var id: String
        var authority: String  // "A" (its own appeals) or "B" (an external appellate forum)
        var disposition: String  // open-case | ban | dismiss
        var caseId: String
        var classId: String
        var decided: String
        var received: String
        /// A signed `decisionDeadline` on an open-case verdict.
        var deadline: String?
    }

    struct RevocationSpec: Codable {
        var authority: String
        var effective: String
        var determined: String
    }

    /// What the rules give at an instant: bits (`bit1 bit0`) and what governs them (a verdict id or a
    /// rule name).
    struct Check: Codable {
        var at: String
        var bits: String
        var authorizedBy: String
    }

    var name: String
    var comment: String?
    var verdicts: [VerdictSpec]
    var revocations: [RevocationSpec] = []
    var checks: [Check] = []

    init(name: String, comment: String? = nil, verdicts: [VerdictSpec], revocations: [RevocationSpec] = []) {
        self.name = name
        self.comment = comment
        self.verdicts = verdicts
        self.revocations = revocations
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        comment = try container.decodeIfPresent(String.self, forKey: .comment)
        verdicts = try container.decode([VerdictSpec].self, forKey: .verdicts)
        revocations = try container.decodeIfPresent([RevocationSpec].self, forKey: .revocations) ?? []
        checks = try container.decodeIfPresent([Check].self, forKey: .checks) ?? []
    }

    var description: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(self), as: UTF8.self)
    }

    // MARK: - The fixture parties every scenario uses

    /// Short terms so that deadlines, appeal windows and expiries interleave within days.
    static let classes = [
        FixtureClass("k1", decisionDeadline: "P1D", appealWindow: "P1D", banTerm: "P2D"),
        FixtureClass("k2", decisionDeadline: "P2D", appealWindow: "P1D", banTerm: "P1D", appealEffect: "suspensive"),
        FixtureClass(
            "k3", decisionDeadline: "P3D", appealWindow: "P2D", banTerm: "permanent", appealEffect: "suspensive"),
        FixtureClass("k4", decisionDeadline: "P1D", appealWindow: "P3D", banTerm: "permanent"),
        FixtureClass("k5", decisionDeadline: "P14D", appealWindow: "P10D", banTerm: "P30D", appealEffect: "suspensive"),
        FixtureClass("k6", decisionDeadline: "P5D", appealWindow: "P30D", banTerm: "P3D"),
    ]
    static let authorities: [String: FixtureAuthority] = [
        "A": FixtureAuthority(classes: classes, appellate: "self"),
        "B": FixtureAuthority(
            componentId: "onym:component:authority-b", seed: FixtureSeed.repeated(0x08), classes: classes,
            appellate: "onym:component:appeals-court"),
    ]
    static let user = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x05))!
    static let binding = "enrollment:oracle-device"
    static let mandates: [String: Mandate] = authorities.mapValues { authority in
        try! Mandate(
            json: FixtureRecords.mandate(
                user: user, interface: FixtureInterface(), authority: authority, classes: classes.map(\.classId),
                deviceBinding: binding, acceptedAt: "2026-01-01T00:00:00Z"))
    }

    /// The signed verdict a spec describes.
    static func verdict(_ spec: VerdictSpec) -> Verdict {
        let disposition: FixtureRecords.Disposition =
            switch spec.disposition {
            case "ban": .ban
            case "dismiss": .dismiss
            default: .openCase
            }
        let authority = authorities[spec.authority]!
        let json = FixtureRecords.verdict(
            disposition, caseId: spec.caseId, mandate: mandates[spec.authority]!, authority: authority,
            classId: spec.classId, decidedAt: spec.decided,
            edit: { object in
                if let deadline = spec.deadline { object.set("decisionDeadline", .string(deadline)) }
            })
        return try! Verdict(json: json)
    }

    /// The facts the evaluators see, and each verdict's ref by spec id.
    func facts() -> (facts: [VerdictFact], refs: [String: ContentAddress]) {
        var refs: [String: ContentAddress] = [:]
        let facts = verdicts.map { spec -> VerdictFact in
            let verdict = Self.verdict(spec)
            refs[spec.id] = verdict.ref
            return VerdictFact(
                verdict: verdict, receivedAt: Instant.parse(spec.received)!,
                manifest: Self.authorities[spec.authority]!.manifest())
        }
        return (facts, refs)
    }

    func effects() -> [DesignationRevocation.Effect] {
        revocations.map {
            DesignationRevocation.Effect(
                authority: Self.authorities[$0.authority]!.componentId, effectiveAt: Instant.parse($0.effective)!,
                determinedAt: Instant.parse($0.determined)!)
        }
    }

    /// Every instant where something can change, with the second before and after it.
    static func instants(_ facts: [VerdictFact], _ effects: [DesignationRevocation.Effect]) -> [Instant] {
        var points: Set<Instant> = []
        for fact in facts {
            for point in [
                fact.decidedAt, fact.receivedAt, fact.executeAfter, fact.banExpires, fact.decisionDeadline,
            ] {
                if let point { points.insert(point) }
            }
        }
        for effect in effects { points.formUnion([effect.effectiveAt, effect.determinedAt]) }
        return points.flatMap { [$0.adding(seconds: -1), $0, $0.adding(seconds: 1)] }.sorted()
    }
}

/// Seeded generator of scenarios: several cases per binding, every disposition, suspensive and not,
/// permanent and expiring, signed deadlines, same-second verdicts, receipts later (or, within the
/// reference's 300 s skew, earlier) than decisions, re-deliveries, and revocations.
struct FoldScenarioGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// SplitMix64.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    static let origin = Instant.parse("2026-03-01T00:00:00Z")!

    /// An instant within a few days, on a coarse grid half of the time (so that verdicts, deadlines
    /// and expiries often share a second).
    private mutating func instant(within days: Int) -> Instant {
        let hours = below(days * 24)
        let seconds = chance(50) ? 0 : below(3600)
        return Self.origin.adding(seconds: Int64(hours * 3600 + seconds))
    }

    /// - Parameters:
    ///   - authorities: which fixture authorities may decide cases.
    ///   - withRevocations: whether a designation revocation may occur.
    mutating func scenario(name: String, authorities: [String] = ["A", "B"], withRevocations: Bool = true)
        -> FoldScenario
    {
        var verdicts: [FoldScenario.VerdictSpec] = []
        let caseCount = 1 + below(3)
        for caseNumber in 0..<caseCount {
            let authority = authorities.count == 1 || chance(75) ? authorities[0] : authorities[1]
            let caseId = "case-\(caseNumber)"
            var decided = instant(within: 6)
            for _ in 0..<(1 + below(4)) {
                let disposition = ["open-case", "open-case", "ban", "dismiss"][below(4)]
                let classId = FoldScenario.classes[below(FoldScenario.classes.count)].classId
                var received = decided
                switch below(6) {
                case 0: received = decided.adding(seconds: Int64(below(4)))
                case 1: received = decided.adding(seconds: Int64(3600 * (1 + below(72))))
                case 2: received = decided.adding(seconds: -Int64(below(300)))
                default: break
                }
                var deadline: String?
                if disposition == "open-case" && chance(25) {
                    deadline = decided.adding(seconds: Int64(3600 * below(96))).rfc3339
                }
                verdicts.append(
                    .init(
                        id: "v\(verdicts.count)", authority: authority, disposition: disposition, caseId: caseId,
                        classId: classId, decided: decided.rfc3339, received: received.rfc3339, deadline: deadline))
                if chance(10) {  // a re-delivery of the same verdict, received again later
                    var again = verdicts.last!
                    again.id = "v\(verdicts.count)"
                    again.received = received.adding(seconds: Int64(3600 * (1 + below(48)))).rfc3339
                    verdicts.append(again)
                }
                // The next verdict of the case: the same second sometimes, else hours to days later.
                decided = chance(15) ? decided : decided.adding(seconds: Int64(1800 * (1 + below(200))))
            }
        }
        var revocations: [FoldScenario.RevocationSpec] = []
        if withRevocations && chance(20) {
            var effective = instant(within: 10)
            if chance(50) {  // at the very instant something else happens
                let facts = FoldScenario(name: name, verdicts: verdicts).facts().facts
                let points = facts.flatMap { [$0.decidedAt, $0.executeAfter, $0.banExpires, $0.decisionDeadline] }
                    .compactMap { $0 }
                effective = points[below(points.count)]
            }
            revocations.append(
                .init(
                    authority: chance(60) ? "A" : "B", effective: effective.rfc3339,
                    determined: effective.adding(seconds: Int64(3600 * below(48))).rfc3339))
        }
        return FoldScenario(name: name, verdicts: verdicts, revocations: revocations)
    }
}
