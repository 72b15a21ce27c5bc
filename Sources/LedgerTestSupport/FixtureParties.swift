public import LedgerFormat

/// Deterministic parties for tests and generated fixtures: every key comes from a fixed seed,
/// so every signature, ref and commit built from them is reproducible (fixtures are generated, never hand-edited).
public enum FixtureSeed {
    /// A 32-byte seed of one repeated byte (the reference tests' convention: 0x05 user, 0x07 authority, 0x0b interface).
    public static func repeated(_ byte: UInt8) -> [UInt8] { [UInt8](repeating: byte, count: 32) }

    /// A 32-byte seed derived from a label, for fixtures with many parties.
    public static func labelled(_ label: String) -> [UInt8] {
        SHA256.hash(Array("onym-ledger fixture seed:\(label)".utf8)).bytes
    }
}

/// A violation class's terms, as a manifest declares them.
public struct FixtureClass: Sendable {
    public var classId: String
    public var responseWindow = "P3D"
    public var decisionDeadline = "P7D"
    public var appealWindow = "P30D"
    public var banTerm = "P365D"
    public var appealEffect = "non-suspensive"

    public init(
        _ classId: String, responseWindow: String = "P3D", decisionDeadline: String = "P7D",
        appealWindow: String = "P30D", banTerm: String = "P365D", appealEffect: String = "non-suspensive"
    ) {
        self.classId = classId
        self.responseWindow = responseWindow
        self.decisionDeadline = decisionDeadline
        self.appealWindow = appealWindow
        self.banTerm = banTerm
        self.appealEffect = appealEffect
    }

    /// The reference manifest's three classes (onym-wire.md §3.2).
    public static let referenceClasses: [FixtureClass] = [
        FixtureClass("csam", responseWindow: "P3D", decisionDeadline: "P7D", appealWindow: "P30D", banTerm: "P365D"),
        FixtureClass(
            "credible-violence", responseWindow: "P7D", decisionDeadline: "P14D", appealWindow: "P30D",
            banTerm: "P365D"),
        FixtureClass(
            "unsolicited-pornography", responseWindow: "P7D", decisionDeadline: "P14D", appealWindow: "P30D",
            banTerm: "P90D", appealEffect: "suspensive"),
    ]

    var json: JSONValue {
        .object(
            JSONObject([
                ("classId", .string(classId)), ("definition", .string("https://authority.example/policy/\(classId)")),
                ("responseWindow", .string(responseWindow)), ("decisionDeadline", .string(decisionDeadline)),
                ("appealWindow", .string(appealWindow)), ("banTerm", .string(banTerm)),
                ("appealEffect", .string(appealEffect)),
            ]))
    }
}

/// An authority: its operator key and its published manifest bytes.
public struct FixtureAuthority: Sendable {
    public let componentId: String
    public let operatorKey: Ed25519.PrivateKey
    public let classes: [FixtureClass]
    public let appellate: String?
    /// The exact published manifest bytes: pretty-printed (deliberately not canonical, as the
    /// reference manifest is), so tests prove the hash is over exact bytes.
    public let manifestBytes: [UInt8]

    public init(
        componentId: String = "onym:component:onym-authority", seed: [UInt8] = FixtureSeed.repeated(0x07),
        classes: [FixtureClass] = FixtureClass.referenceClasses, appellate: String? = "self",
        validUntil: String = "2027-08-31T23:59:59Z"
    ) {
        self.componentId = componentId
        self.operatorKey = Ed25519.PrivateKey(seed: seed)!
        self.classes = classes
        self.appellate = appellate
        var manifest = JSONObject([
            ("version", .integer(1)), ("componentId", .string(componentId)), ("seat", .string("moderation")),
            ("operator", .string(operatorKey.publicKey.onymKey)),
            ("moderationProfileId", .string("onym:moderation-profile:consent-bound-v1")),
            ("violationClasses", .array(classes.map(\.json))), ("validUntil", .string(validUntil)),
            ("newHolderAppeal", .string("https://authority.example/new-holder")),
        ])
        if let appellate { manifest.set("appellate", .string(appellate)) }
        self.manifestBytes = PrettyJSON.render(.object(manifest))
    }

    public var manifestHash: ContentAddress { SHA256.hash(manifestBytes) }

    public func manifest() -> AuthorityManifest { try! AuthorityManifest(rawBytes: manifestBytes) }

    /// Signs a verdict object (adds `signature` over its canonical bytes without `signature`).
    public func sign(_ unsigned: JSONObject) -> JSONObject {
        var signed = unsigned
        signed.remove("signature")
        let signature = operatorKey.signature(for: CanonicalJSON.encode(signed))
        signed.set("signature", .string(Base64.encode(signature)))
        return signed
    }
}

/// The interface vendor's countersigning root (reference §2.2).
public struct FixtureInterface: Sendable {
    public let componentId: String
    public let rootSeed: [UInt8]

    public init(componentId: String = "onym:component:onym-ios", rootSeed: [UInt8] = FixtureSeed.repeated(0x0b)) {
        self.componentId = componentId
        self.rootSeed = rootSeed
    }

    public func countersigningKey(for authority: String, epoch: UInt32 = 0) -> Ed25519.PrivateKey {
        InterfaceKeyDerivation.privateKey(root: rootSeed, authority: authority, epoch: epoch)
    }
}
