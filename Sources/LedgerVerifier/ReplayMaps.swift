public import LedgerFormat
public import LedgerStore

/// The part of the replay state that grows with the ledger — every binding, who consented on it, its last
/// written bits, and the evaluator's facts, revocations, attempts and manifests — kept as one binary file of
/// local state beside a checkpoint (the auditor's `replay.state`, the writer's
/// `onym-ledger-writer-replay.state`), so a run that continues from the checkpoint reads only the new commits.
///
/// Bytes: the line `onym-ledger replay state 1 <tip hex>\n`, then a string table (every distinct binding,
/// identity, case id and authority once: a count, then length-prefixed UTF-8) and the maps, whose strings are
/// indices into the table; integers are LEB128 varints (`ByteWriter`). Local state, never input: used only
/// for the tip it names; a file that does not parse is ignored and the state rebuilt from the tree.
public struct ReplayMaps: Sendable {
    public var bindings: Set<String>
    public var identities: BindingIdentities
    public var lastWritten: [String: DeviceBits]
    /// The evaluator's facts by binding (instants with their nanoseconds: a restored fact is the fact the
    /// replay computed), the revocation effects, status attempts and manifests.
    public var facts: [String: [VerdictFact]]
    public var revocations: [DesignationRevocation.Effect]
    public var statusAttempts: [StatusAttempt]
    public var manifests: [AuthorityManifest]

    static let magic = "onym-ledger replay state 1"

    public init(of state: ReplayState) {
        bindings = state.bindings
        identities = state.identities
        lastWritten = state.lastWritten
        facts = state.facts
        revocations = state.revocations
        statusAttempts = state.statusAttempts
        manifests = state.manifests
    }

    /// Puts the maps into `state`.
    func restore(into state: inout ReplayState) {
        state.bindings = bindings
        state.identities = identities
        state.lastWritten = lastWritten
        state.facts = facts
        state.revocations = revocations
        state.statusAttempts = statusAttempts
        state.manifests = manifests
    }

    // MARK: - The file

    /// Interns strings while the maps are written.
    private struct StringTable {
        var indices: [String: Int] = [:]
        var strings: [String] = []

        mutating func index(_ text: String) -> Int {
            if let found = indices[text] { return found }
            indices[text] = strings.count
            strings.append(text)
            return strings.count - 1
        }
    }

    public func fileBytes(tip: ObjectID) -> [UInt8] {
        var table = StringTable()
        var body = ByteWriter(reserving: 64 * (bindings.count + 1))
        func text(_ value: String) { body.count(table.index(value)) }
        func instant(_ value: Instant) {
            body.signed(value.seconds)
            body.varint(UInt64(value.nanoseconds))
        }
        body.count(bindings.count)
        for binding in bindings { text(binding) }
        body.count(identities.first.count)
        for (binding, identity) in identities.first {
            text(binding)
            text(identity.user)
            instant(identity.acceptedAt)
        }
        body.count(identities.shared.count)
        for (binding, list) in identities.shared {
            text(binding)
            body.count(list.count)
            for identity in list {
                text(identity.user)
                instant(identity.acceptedAt)
            }
        }
        body.count(lastWritten.count)
        for (binding, bits) in lastWritten {
            text(binding)
            body.byte((bits.banned ? 2 : 0) | (bits.caseOpen ? 1 : 0))
        }
        body.count(facts.count)
        for (binding, list) in facts {
            text(binding)
            body.count(list.count)
            for fact in list {
                body.address(fact.ref)
                text(fact.caseId)
                text(fact.authority)
                body.byte(Self.code(fact.disposition))
                instant(fact.decidedAt)
                instant(fact.receivedAt)
                let optionals: [Instant?] = [fact.executeAfter, fact.banExpires, fact.decisionDeadline]
                var flags: UInt8 = fact.externalAppellate == nil ? 0 : 8
                for (bit, value) in optionals.enumerated() where value != nil { flags |= 1 << UInt8(bit) }
                body.byte(flags)
                for value in optionals { if let value { instant(value) } }
                if let appellate = fact.externalAppellate { text(appellate) }
                body.count(fact.accusedKeys.count)
                for key in fact.accusedKeys { text(key) }
            }
        }
        body.count(revocations.count)
        for effect in revocations {
            text(effect.authority)
            instant(effect.effectiveAt)
            instant(effect.determinedAt)
        }
        body.count(statusAttempts.count)
        for attempt in statusAttempts { body.raw(CanonicalJSON.encode(attempt.json)) }
        body.count(manifests.count)
        for manifest in manifests { body.raw(manifest.rawBytes) }

        var file = ByteWriter(reserving: body.bytes.count + 32 * table.strings.count + 128)
        for byte in "\(Self.magic) \(tip.hex)\n".utf8 { file.byte(byte) }
        file.count(table.strings.count)
        for string in table.strings { file.string(string) }
        return file.bytes + body.bytes
    }

    /// The maps a file holds for `tip`; nil when the file is for another tip or does not parse.
    public init?(fileBytes bytes: [UInt8], tip: ObjectID) {
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
        func text() throws(ByteReader.Malformed) -> String {
            let index = try reader.varint()
            guard index < UInt64(strings.count) else { throw ByteReader.Malformed() }
            return strings[Int(index)]
        }
        func instant() throws(ByteReader.Malformed) -> Instant {
            let seconds = try reader.signed()
            let nanoseconds = try reader.varint()
            guard nanoseconds < 1_000_000_000 else { throw ByteReader.Malformed() }
            return Instant(seconds: seconds, nanoseconds: Int32(nanoseconds))
        }
        let bindingCount = try reader.count()
        var bindings = Set<String>(minimumCapacity: bindingCount)
        for _ in 0..<bindingCount { bindings.insert(try text()) }
        var first: [String: BindingIdentities.Identity] = [:]
        let firstCount = try reader.count()
        first.reserveCapacity(firstCount)
        for _ in 0..<firstCount {
            let binding = try text()
            first[binding] = BindingIdentities.Identity(user: try text(), acceptedAt: try instant())
        }
        var shared: [String: [BindingIdentities.Identity]] = [:]
        for _ in 0..<(try reader.count()) {
            let binding = try text()
            var list: [BindingIdentities.Identity] = []
            for _ in 0..<(try reader.count()) {
                list.append(BindingIdentities.Identity(user: try text(), acceptedAt: try instant()))
            }
            shared[binding] = list
        }
        var lastWritten: [String: DeviceBits] = [:]
        let writtenCount = try reader.count()
        lastWritten.reserveCapacity(writtenCount)
        for _ in 0..<writtenCount {
            let binding = try text()
            let bits = try reader.byte()
            guard bits < 4 else { throw ByteReader.Malformed() }
            lastWritten[binding] = DeviceBits(caseOpen: bits & 1 != 0, banned: bits & 2 != 0)
        }
        var facts: [String: [VerdictFact]] = [:]
        let factBindings = try reader.count()
        facts.reserveCapacity(factBindings)
        for _ in 0..<factBindings {
            let binding = try text()
            var list: [VerdictFact] = []
            for _ in 0..<(try reader.count()) {
                let ref = try reader.address()
                let caseId = try text()
                let authority = try text()
                guard let disposition = Self.disposition(try reader.byte()) else { throw ByteReader.Malformed() }
                let decidedAt = try instant()
                let receivedAt = try instant()
                let flags = try reader.byte()
                guard flags < 16 else { throw ByteReader.Malformed() }
                let executeAfter = flags & 1 != 0 ? try instant() : nil
                let banExpires = flags & 2 != 0 ? try instant() : nil
                let decisionDeadline = flags & 4 != 0 ? try instant() : nil
                let externalAppellate = flags & 8 != 0 ? try text() : nil
                var accused: [String] = []
                for _ in 0..<(try reader.count()) { accused.append(try text()) }
                list.append(
                    VerdictFact(
                        ref: ref, caseId: caseId, authority: authority, deviceBinding: binding,
                        disposition: disposition, decidedAt: decidedAt, executeAfter: executeAfter,
                        banExpires: banExpires, receivedAt: receivedAt, decisionDeadline: decisionDeadline,
                        externalAppellate: externalAppellate, accusedKeys: accused))
            }
            facts[binding] = list
        }
        var revocations: [DesignationRevocation.Effect] = []
        for _ in 0..<(try reader.count()) {
            revocations.append(
                DesignationRevocation.Effect(
                    authority: try text(), effectiveAt: try instant(), determinedAt: try instant()))
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
        guard reader.atEnd else { throw ByteReader.Malformed() }
        self.bindings = bindings
        identities = BindingIdentities(first: first, shared: shared)
        self.lastWritten = lastWritten
        self.facts = facts
        self.revocations = revocations
        statusAttempts = attempts
        self.manifests = manifests
    }

    private static func code(_ disposition: Verdict.Disposition) -> UInt8 {
        switch disposition {
        case .openCase: 0
        case .ban: 1
        case .dismiss: 2
        }
    }

    private static func disposition(_ code: UInt8) -> Verdict.Disposition? {
        switch code {
        case 0: .openCase
        case 1: .ban
        case 2: .dismiss
        default: nil
        }
    }
}
