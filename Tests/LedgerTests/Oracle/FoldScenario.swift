import Foundation
import LedgerTestSupport

@testable import LedgerFormat
import LedgerStore

/// A device's verdict history in a form small enough to read, shrink and keep as a data file
/// (`Vectors/fold/*.json`): verdicts by disposition, case, class and times, plus revocations and redeemed
/// grants (a recovery moves a case to a second binding, rule F12). Times are RFC 3339 as they are signed
/// (any offset, any fraction); every verdict and grant is built and signed for real by the fixture
/// authorities below, and exists as raw JSON bytes (``FoldScenario/render()``) that both the fold (through
/// the project's parsers) and the oracle (through its own) read.
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
        /// The binding it names: absent or "1" for ``binding``, "2" for ``secondBinding``.
        var binding: String?
        /// Whom it accuses: absent or "1" for ``user``, "2" for ``secondUser`` (a shared device).
        var accused: String?
    }

    /// A grant of `authority` for `caseId` and the vendor's redemption of it, within the rules.
    struct RedemptionSpec: Codable {
        var id: String
        var grant: String  // recovery | unban
        var authority: String
        var caseId: String
        /// Absent or "1" for ``user``, "2" for ``secondUser``.
        var grantee: String?
        var issued: String
        var redeemed: String
        /// Binding keys as for a verdict: absent means "1"; `to` is a recovery's only ("2" when absent).
        var from: String?
        var to: String?
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
        /// Which binding is folded: absent or "1" for ``binding``, "2" for ``secondBinding``.
        var on: String?
        var bits: String
        /// A verdict id, `recovery-unban:<redemption id>` or a rule name.
        var authorizedBy: String
    }

    var name: String
    var comment: String?
    var verdicts: [VerdictSpec]
    var revocations: [RevocationSpec] = []
    var redemptions: [RedemptionSpec] = []
    var checks: [Check] = []

    init(
        name: String, comment: String? = nil, verdicts: [VerdictSpec], revocations: [RevocationSpec] = [],
        redemptions: [RedemptionSpec] = []
    ) {
        self.name = name
        self.comment = comment
        self.verdicts = verdicts
        self.revocations = revocations
        self.redemptions = redemptions
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        comment = try container.decodeIfPresent(String.self, forKey: .comment)
        verdicts = try container.decode([VerdictSpec].self, forKey: .verdicts)
        revocations = try container.decodeIfPresent([RevocationSpec].self, forKey: .revocations) ?? []
        redemptions = try container.decodeIfPresent([RedemptionSpec].self, forKey: .redemptions) ?? []
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
    /// Another identity on the same device (a new holder, a reinstall under a new key).
    static let secondUser = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x06))!
    static let binding = "enrollment:oracle-device"
    /// The binding of the reinstalled app a recovery moves a case to.
    static let secondBinding = "enrollment:oracle-device-reinstalled"
    static func binding(forKey key: String?) -> String { key == "2" ? secondBinding : binding }
    static func user(forKey key: String?) -> Ed25519.PrivateKey { key == "2" ? secondUser : user }
    /// Each authority's mandate of ``user`` on ``binding``.
    static let mandates: [String: Mandate] = authorities.mapValues { mandate($0, user: user, binding: binding) }
    /// Every mandate a scenario can name, by authority, user key and binding key ("1", "2").
    static let allMandates: [String: Mandate] = {
        let keys: [String] = ["1", "2"]
        var all: [String: Mandate] = [:]
        for (name, authority) in authorities {
            for userKey in keys {
                for bindingKey in keys {
                    all["\(name)/\(userKey)/\(bindingKey)"] = mandate(
                        authority, user: user(forKey: userKey), binding: binding(forKey: bindingKey))
                }
            }
        }
        return all
    }()
    static func mandate(_ authority: String, user: String?, binding: String?) -> Mandate {
        allMandates["\(authority)/\(user ?? "1")/\(binding ?? "1")"]!
    }

    private static func mandate(_ authority: FixtureAuthority, user: Ed25519.PrivateKey, binding: String) -> Mandate {
        try! Mandate(
            json: FixtureRecords.mandate(
                user: user, interface: FixtureInterface(), authority: authority, classes: classes.map(\.classId),
                deviceBinding: binding, acceptedAt: "2026-01-01T00:00:00Z"))
    }
    /// Each authority's manifest as the product parses its exact bytes.
    static let manifests: [String: AuthorityManifest] = authorities.mapValues { $0.manifest() }
}
