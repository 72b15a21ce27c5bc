import Foundation
import LedgerTestSupport

@testable import LedgerFormat
import LedgerStore

/// One binding's verdict history in a form small enough to read, shrink and keep as a data file
/// (`Vectors/fold/*.json`): verdicts by disposition, case, class and times, plus revocations. Times
/// are RFC 3339 as they are signed (any offset, any fraction); every verdict is built and signed for
/// real by the fixture authorities below, and exists as raw JSON bytes (``FoldScenario/render()``) that
/// both the fold (through the project's parsers) and the oracle (through its own) read.
struct FoldScenario: Codable, CustomStringConvertible {
    struct VerdictSpec: Codable {
        var id: String
        /// "A" (its own appeals), "B" (an external appellate forum) or "C" (no `appellate` at all).
        var authority: String
        var disposition: String  // open-case | ban | dismiss
        var caseId: String
        var classId: String
        var decided: String
        var received: String
        /// A signed `decisionDeadline` on an open-case verdict.
        var deadline: String?
        /// A ban's signed terms. Absent: derived exactly from `decided` and the class (in UTC).
        var appealDeadline: String?
        var executeAfter: String?
        var banExpires: String?
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
    /// Authority C's terms for the same class ids: a verdict's deadline and ban term come from its own
    /// authority's manifest.
    static let otherClasses = [
        FixtureClass(
            "k1", decisionDeadline: "P3D", appealWindow: "P2D", banTerm: "P1D", appealEffect: "suspensive"),
        FixtureClass("k2", decisionDeadline: "P1D", appealWindow: "P1D", banTerm: "P5D"),
        FixtureClass("k3", decisionDeadline: "P2D", appealWindow: "P1D", banTerm: "permanent"),
        FixtureClass("k4", decisionDeadline: "P4D", appealWindow: "P2D", banTerm: "P2D", appealEffect: "suspensive"),
        FixtureClass(
            "k5", decisionDeadline: "P+02D", appealWindow: "P4D", banTerm: "P003D", appealEffect: "suspensive"),
        FixtureClass("k6", decisionDeadline: "P7D", appealWindow: "P1D", banTerm: "P10D"),
    ]
    static let authorities: [String: FixtureAuthority] = [
        "A": FixtureAuthority(classes: classes, appellate: "self"),
        "B": FixtureAuthority(
            componentId: "onym:component:authority-b", seed: FixtureSeed.repeated(0x08), classes: classes,
            appellate: "onym:component:appeals-court"),
        "C": FixtureAuthority(
            componentId: "onym:component:authority-c", seed: FixtureSeed.repeated(0x09), classes: otherClasses,
            appellate: nil),
    ]
    static let user = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x05))!
    static let binding = "enrollment:oracle-device"
    static let mandates: [String: Mandate] = authorities.mapValues { authority in
        try! Mandate(
            json: FixtureRecords.mandate(
                user: user, interface: FixtureInterface(), authority: authority, classes: classes.map(\.classId),
                deviceBinding: binding, acceptedAt: "2026-01-01T00:00:00Z"))
    }
    /// Each authority's manifest as the product parses its exact bytes.
    static let manifests: [String: AuthorityManifest] = authorities.mapValues { $0.manifest() }
}
