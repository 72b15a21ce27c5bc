/// `ledger.json`: what a ledger is about and whose keys it trusts (docs/FORMAT.md §"Descriptor").
///
/// One ledger = one interface vendor = one Apple developer-account scope (docs/FORMAT.md, "Descriptor"). The Apple
/// account scope lists every app that shares the bit contract (the enforcement profile §1
/// isolation rule, §11 criterion 5). The interface countersigning keys are the root key plus per-authority
/// rotated keys, as the reference's `/health` publishes them (reference §2.2).
public struct LedgerDescriptor: Sendable, Equatable {
    public static let formatVersion: Int64 = 2
    public static let fields: Set<String> = [
        "formatVersion", "ledgerId", "interface", "profile", "appleAccount",
        "interfaceKeys", "log",
    ]

    public struct AppleAccount: Sendable, Equatable {
        public var teamId: String
        public var apps: [String]

        public init(teamId: String, apps: [String]) {
            self.teamId = teamId
            self.apps = apps
        }

        public var json: JSONObject {
            JSONObject([("teamId", .string(teamId)), ("apps", .array(apps.map { .string($0) }))])
        }

        /// The first rule of an account scope a vendor states (`init`'s `--team-id` and `--app`) that
        /// `teamId` and `apps` break — the rules the decoder holds `appleAccount` to.
        public enum Violation: Error, Equatable, Sendable {
            /// A team without apps, or apps without a team: the scope is a team and every app in it.
            case unpaired
            /// Not an Apple team id (``LedgerDescriptor/isAppleTeamId(_:)``).
            case teamId(String)
            /// Not a bundle identifier (``LedgerDescriptor/isBundleIdentifier(_:)``).
            case app(String)
        }

        /// The account scope of `teamId` and `apps`, nil when neither is given.
        public static func checked(teamId: String?, apps: [String]) throws(Violation) -> AppleAccount? {
            guard (teamId == nil) == apps.isEmpty else { throw .unpaired }
            guard let teamId else { return nil }
            guard LedgerDescriptor.isAppleTeamId(teamId) else { throw .teamId(teamId) }
            for app in apps where !LedgerDescriptor.isBundleIdentifier(app) { throw .app(app) }
            return AppleAccount(teamId: teamId, apps: apps)
        }
    }

    /// A rotated per-authority countersigning key (epoch ≥ 1).
    public struct EpochKey: Sendable, Equatable {
        public var epoch: Int64
        public var key: Ed25519.PublicKey

        public init(epoch: Int64, key: Ed25519.PublicKey) {
            self.epoch = epoch
            self.key = key
        }
    }

    public var ledgerId: String
    public var interface: WireString
    public var profile: ContentAddress?
    public var appleAccount: AppleAccount?
    public var interfaceRootKey: Ed25519.PublicKey?
    /// authority componentId → its rotated keys, oldest epoch first.
    public var authorityKeys: [WireString: [EpochKey]]
    /// The ledger as a transparency log (docs/FORMAT.md, "Transparency"): the Ed25519 verifier key its checkpoints are
    /// signed with, whose name is the log's origin (C2SP signed-note `<origin>+<key ID>+<key>`). The writer sets it at
    /// `init`.
    public var log: NoteKey?

    public init(
        ledgerId: String, interface: WireString, profile: ContentAddress? = nil, appleAccount: AppleAccount? = nil,
        interfaceRootKey: Ed25519.PublicKey? = nil, authorityKeys: [WireString: [EpochKey]] = [:], log: NoteKey? = nil
    ) {
        self.log = log
        self.ledgerId = ledgerId
        self.interface = interface
        self.profile = profile
        self.appleAccount = appleAccount
        self.interfaceRootKey = interfaceRootKey
        self.authorityKeys = authorityKeys
    }

    /// The keys a mandate for `authority` may be countersigned with: the root (epoch 0) and every
    /// epoch the descriptor lists for that authority — a rotation does not void earlier mandates.
    public func countersigningKeys(for authority: WireString) -> [Ed25519.PublicKey] {
        (interfaceRootKey.map { [$0] } ?? []) + (authorityKeys[authority] ?? []).map(\.key)
    }

    public init(json: JSONObject) throws(LedgerFormatError) {
        let reader = FieldReader(json)
        try reader.rejectUnknownKeys(allowed: Self.fields)
        try reader.version("formatVersion", expected: Self.formatVersion)
        ledgerId = try reader.nonEmptyString("ledgerId")
        guard Self.isLedgerId(ledgerId) else {
            throw LedgerFormatError(
                .invalidValue,
                "ledgerId is 1–128 ASCII letters, digits and . _ : / -, starting with a letter or digit "
                    + "(no look-alikes: an auditor keeps its state by this name)",
                path: reader.fieldPath("ledgerId"))
        }
        interface = try reader.componentId("interface")
        profile = reader.has("profile") ? try reader.contentAddress("profile") : nil
        if let account = try reader.optionalObject("appleAccount") {
            try account.rejectUnknownKeys(allowed: ["teamId", "apps"])
            let apps = try account.stringArray("apps")
            guard !apps.isEmpty, Set(apps).count == apps.count else {
                throw LedgerFormatError(
                    .invalidValue, "apps lists each app sharing the bits once, at least one",
                    path: account.fieldPath("apps"))
            }
            let teamId = try account.nonEmptyString("teamId")
            guard Self.isAppleTeamId(teamId) else {
                throw LedgerFormatError(
                    .invalidValue, "teamId is an Apple team id: 10 capital letters or digits",
                    path: account.fieldPath("teamId"))
            }
            for (index, app) in apps.enumerated() where !Self.isBundleIdentifier(app) {
                throw LedgerFormatError(
                    .invalidValue,
                    "a bundle identifier is two or more dot-separated parts of ASCII letters, digits and hyphens, "
                        + "at most 155 characters",
                    path: "\(account.fieldPath("apps"))[\(index)]")
            }
            appleAccount = AppleAccount(teamId: teamId, apps: apps)
        } else {
            appleAccount = nil
        }
        let keys = try reader.object("interfaceKeys")
        try keys.rejectUnknownKeys(allowed: ["root", "authorities"])
        interfaceRootKey = keys.has("root") ? try keys.onymKey("root") : nil
        var authorityKeys: [WireString: [EpochKey]] = [:]
        if let authorities = try keys.optionalObject("authorities") {
            for member in authorities.object.members {
                var epochs: [EpochKey] = []
                for (index, element) in try authorities.array(member.key).enumerated() {
                    let path = "\(authorities.fieldPath(member.key))[\(index)]"
                    guard case .object(let object) = element else {
                        throw LedgerFormatError(.wrongType, "expected {epoch, key}", path: path)
                    }
                    let entry = FieldReader(object, path: path)
                    try entry.rejectUnknownKeys(allowed: ["epoch", "key"])
                    let epoch = try entry.integer("epoch")
                    guard epoch >= 1, epoch <= Int64(UInt32.max), epoch > (epochs.last?.epoch ?? 0) else {
                        throw LedgerFormatError(.invalidValue, "epochs are ≥ 1 and strictly increasing", path: path)
                    }
                    epochs.append(EpochKey(epoch: epoch, key: try entry.onymKey("key")))
                }
                authorityKeys[WireString(member.key)] = epochs
            }
        }
        self.authorityKeys = authorityKeys
        if reader.has("log") {
            let text = try reader.nonEmptyString("log")
            guard let key = NoteKey(text), key.type == NoteKey.ed25519, Self.isUsableOrigin(key.name) else {
                throw LedgerFormatError(
                    .invalidValue,
                    "log is a C2SP Ed25519 verifier key <origin>+<key ID>+<key> whose origin does not start with "
                        + "SSHSIG",
                    path: reader.fieldPath("log"))
            }
            log = key
        } else {
            log = nil
        }
    }

    /// A ledger id: 1–128 characters, ASCII letters, digits and `. _ : / -`, the first a letter or digit.
    /// Auditors key their state by it and compare it across histories (docs/VERIFY.md, "The auditor's
    /// state"), so it admits no look-alikes — no zero-width or other invisible characters, no homoglyphs
    /// from other scripts, no spaces.
    public static func isLedgerId(_ text: String) -> Bool {
        let punctuation: Set<UInt8> = Set(Array("._:/-".utf8))
        let bytes = Array(text.utf8)
        guard (1...128).contains(bytes.count), let first = bytes.first, Self.isAlphanumeric(first) else {
            return false
        }
        return bytes.allSatisfy { Self.isAlphanumeric($0) || punctuation.contains($0) }
    }

    /// An Apple developer team id: 10 characters, capital letters and digits (profile §1: the team whose
    /// DeviceCheck bits the ledger accounts for).
    public static func isAppleTeamId(_ text: String) -> Bool {
        text.utf8.count == 10 && text.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// A bundle identifier: at least two dot-separated parts of ASCII letters, digits and hyphens, at most 155
    /// characters (Apple's CFBundleIdentifier alphabet).
    public static func isBundleIdentifier(_ text: String) -> Bool {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return text.utf8.count <= 155 && parts.count >= 2
            && parts.allSatisfy { part in
                !part.isEmpty && part.allSatisfy { Self.isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
            }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// An origin a log key may sign under: a note key name that cannot begin an SSHSIG signed blob (the
    /// log key may be the commit-signing key: docs/DECISIONS.md, "The ledger is a transparency log").
    public static func isUsableOrigin(_ origin: String) -> Bool {
        NoteKey.isValidName(origin) && !origin.hasBytePrefix("SSHSIG")
    }

    public var json: JSONObject {
        var object = JSONObject([
            ("formatVersion", .integer(Self.formatVersion)), ("ledgerId", .string(ledgerId)),
            ("interface", .string(interface.text)),
        ])
        if let profile { object.set("profile", .string(profile.hex)) }
        if let appleAccount {
            object.set("appleAccount", .object(appleAccount.json))
        }
        var keys = JSONObject()
        if let interfaceRootKey { keys.set("root", .string(interfaceRootKey.onymKey)) }
        if !authorityKeys.isEmpty {
            var authorities = JSONObject()
            for (authority, epochs) in authorityKeys {
                authorities.set(
                    authority.text,
                    .array(
                        epochs.map { epoch in
                            .object(
                                JSONObject([("epoch", .integer(epoch.epoch)), ("key", .string(epoch.key.onymKey))]))
                        }))
            }
            keys.set("authorities", .object(authorities))
        }
        object.set("interfaceKeys", .object(keys))
        if let log { object.set("log", .string(log.description)) }
        return object
    }
}
