public import LedgerFormat
public import LedgerStore

/// The part of the replay state that grows with the ledger — ``ReplayState/maps`` itself, not a copy of
/// it — kept as local state beside a checkpoint (the auditor's, the writer's) so a run that continues from the checkpoint reads only the new commits and the
/// bindings they touch: every binding's record in a ``BindingTable`` (a sorted table mapped into memory,
/// and its delta), and the few rest — the identities of shared bindings, the revocation effects, status
/// attempts and manifests, and the idempotency keys of the last commits — in one small binary file.
///
/// The small file's bytes: the line `onym-ledger replay state 5 <tip hex>\n`, then a string table (every
/// distinct binding, identity, authority and idempotency key once: a count, then length-prefixed UTF-8) and
/// the lists, whose strings are indices into the table, the retry window last (docs/VERIFY.md, "The
/// auditor's state"); integers are LEB128 varints (`ByteWriter`). Local state, never input:
/// used only for the tip it names; files that do not parse are ignored and the state rebuilt from the tree.
public struct ReplayMaps: Sendable, Equatable {
    /// Where the two parts are kept.
    public struct Paths: Sendable {
        public let small: String
        public let bindings: String

        public init(small: String, bindings: String) {
            self.small = small
            self.bindings = bindings
        }
    }

    /// Every device binding the ledger names so far — by a mandate, a received verdict or a write — with
    /// its first identity, its last written bits (what Apple holds, as far as the log knows) and its
    /// received verdicts (the evaluator's state for the replay).
    public var bindings = BindingTable()
    /// The identities of bindings several identities' mandates name (shown, never silent).
    public var identities = BindingIdentities()
    public var revocations: [DesignationRevocation.Effect] = []
    /// The grants redeemed within the rules so far, in the order the ledger stored them (few).
    public var redemptions: [GrantRedemption.Effect] = []
    /// Every status attempt and manifest so far (few): what revocation justifications are judged against.
    public var statusAttempts: [StatusAttempt] = []
    public var manifests: [AuthorityManifest] = []
    /// The idempotency keys of the last commits (the writer's retry window): a key names one batch in it.
    public var recentIdempotencyKeys = RecentIdempotencyKeys()

    static let magic = "onym-ledger replay state 5"

    /// The maps of a ledger with no commits.
    public init() {}

    /// The maps the files at `paths` hold for `tip`; nil when either is missing, stale or damaged.
    public static func load(from paths: Paths, tip: ObjectID) -> ReplayMaps? {
        guard let small = DurableFile.read(paths.small), var maps = ReplayMaps(smallFile: small, tip: tip),
            let (table, _) = BindingTable.load(from: paths.bindings, tip: tip)
        else { return nil }
        maps.bindings = table
        return maps
    }

    /// Saves the maps at `tip`: the binding table (a delta while the changes are few), then the small file.
    public func save(to paths: Paths, tip: ObjectID, durable: Bool) throws(DurableFile.WriteError) {
        try bindings.save(to: paths.bindings, tip: tip, note: 0, durable: durable)
        try DurableFile.write(smallFileBytes(tip: tip), to: paths.small, mode: 0o600, durable: durable)
    }

    // MARK: - The file

    /// Interns strings while the maps are written.
    private struct StringTable {
        var indices: [WireString: Int] = [:]
        var strings: [String] = []

        mutating func index(_ text: String) -> Int { index(WireString(text)) }

        mutating func index(_ text: WireString) -> Int {
            if let found = indices[text] { return found }
            indices[text] = strings.count
            strings.append(text.text)
            return strings.count - 1
        }
    }

    /// The small file's bytes (the binding table is saved on its own).
    func smallFileBytes(tip: ObjectID) -> [UInt8] {
        var table = StringTable()
        var body = ByteWriter(reserving: 4096)
        func text(_ value: String) { body.count(table.index(value)) }
        func text(_ value: WireString) { body.count(table.index(value)) }
        body.count(identities.shared.count)
        for (binding, list) in identities.shared {
            text(binding)
            body.count(list.count)
            for identity in list {
                text(identity.user)
                body.instant(identity.acceptedAt)
            }
        }
        body.count(revocations.count)
        for effect in revocations {
            text(effect.authority)
            body.instant(effect.effectiveAt)
            body.instant(effect.determinedAt)
        }
        body.count(redemptions.count)
        for effect in redemptions {
            text(effect.grantRef.hex)
            text(effect.grantType.rawValue)
            text(effect.authority)
            text(effect.caseId)
            text(effect.grantee)
            text(effect.fromBinding)
            text(effect.toBinding ?? "")
            body.instant(effect.redeemedAt)
        }
        body.count(statusAttempts.count)
        for attempt in statusAttempts { body.raw(CanonicalJSON.encode(attempt.json)) }
        body.count(manifests.count)
        for manifest in manifests { body.raw(manifest.rawBytes) }
        // The retry window: one slot per commit, oldest first — 0 for none, else 1 + the key's string index.
        body.count(recentIdempotencyKeys.slots.count)
        for slot in recentIdempotencyKeys.slots { body.count(slot.map { table.index($0) + 1 } ?? 0) }

        var file = ByteWriter(reserving: body.bytes.count + 32 * table.strings.count + 128)
        for byte in "\(Self.magic) \(tip.hex)\n".utf8 { file.byte(byte) }
        file.count(table.strings.count)
        for string in table.strings { file.string(string) }
        return file.bytes + body.bytes
    }

    /// The small file's maps for `tip` (with an empty binding table); nil when the file is for another tip
    /// or does not parse.
    init?(smallFile bytes: [UInt8], tip: ObjectID) {
        let header = Array("\(Self.magic) \(tip.hex)\n".utf8)
        guard bytes.starts(with: header) else { return nil }
        do {
            try self.init(reading: ByteReader(bytes, from: header.count))
        } catch {
            return nil
        }
    }

    private init(reading start: ByteReader) throws(ByteReader.Malformed) {
        var reader = start
        let tableCount = try reader.count()
        var strings: [String] = []
        strings.reserveCapacity(tableCount)
        for _ in 0..<tableCount { strings.append(try reader.string()) }
        func text() throws(ByteReader.Malformed) -> WireString {
            let index = try reader.varint()
            guard index < UInt64(strings.count) else { throw ByteReader.Malformed() }
            return WireString(strings[Int(index)])
        }
        var shared: [WireString: [BindingIdentities.Identity]] = [:]
        for _ in 0..<(try reader.count()) {
            let binding = try text()
            var list: [BindingIdentities.Identity] = []
            for _ in 0..<(try reader.count()) {
                list.append(BindingIdentities.Identity(user: try text(), acceptedAt: try reader.instant()))
            }
            shared[binding] = list
        }
        var revocations: [DesignationRevocation.Effect] = []
        for _ in 0..<(try reader.count()) {
            revocations.append(
                DesignationRevocation.Effect(
                    authority: try text(), effectiveAt: try reader.instant(), determinedAt: try reader.instant()))
        }
        var redemptions: [GrantRedemption.Effect] = []
        for _ in 0..<(try reader.count()) {
            guard let ref = ContentAddress(hex: try text().text), let type = Grant.GrantType(rawValue: try text().text)
            else {
                throw ByteReader.Malformed()
            }
            let (authority, caseId, grantee, from, to) = (try text(), try text(), try text(), try text(), try text())
            redemptions.append(
                GrantRedemption.Effect(
                    grantRef: ref, grantType: type, authority: authority, caseId: caseId, grantee: grantee,
                    fromBinding: from, toBinding: to.text.isEmpty ? nil : to, redeemedAt: try reader.instant()))
        }
        var attempts: [StatusAttempt] = []
        var manifests: [AuthorityManifest] = []
        do {
            for _ in 0..<(try reader.count()) {
                attempts.append(try StatusAttempt(json: try CanonicalJSON.parse(try reader.raw())))
            }
            for _ in 0..<(try reader.count()) {
                manifests.append(try AuthorityManifest(rawBytes: Array(try reader.raw())))
            }
        } catch {
            throw ByteReader.Malformed()
        }
        var slots: [String?] = []
        for _ in 0..<(try reader.count()) {
            let slot = try reader.varint()
            guard slot <= UInt64(strings.count) else { throw ByteReader.Malformed() }
            slots.append(slot == 0 ? nil : strings[Int(slot - 1)])
        }
        guard reader.atEnd, slots.count <= LedgerTrailers.retryWindow else { throw ByteReader.Malformed() }
        recentIdempotencyKeys = RecentIdempotencyKeys(slots: slots)
        bindings = BindingTable()
        identities = BindingIdentities(shared: shared)
        self.revocations = revocations
        self.redemptions = redemptions
        statusAttempts = attempts
        self.manifests = manifests
    }
}
