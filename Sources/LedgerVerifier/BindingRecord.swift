public import LedgerFormat
public import LedgerStore

/// What the replay knows about one device binding: the first identity a mandate named on it (none: no
/// mandate names it), the bits of its last successful write, and every received verdict about it — the
/// part of the replay state that grows with the ledger, kept per binding so a run that continues from a
/// checkpoint reads only the bindings its commits touch (``BindingTable``).
public struct BindingRecord: Sendable, Equatable {
    public var identity: BindingIdentities.Identity?
    public var lastWritten: DeviceBits?
    /// The evaluator's facts, in the order the verdicts were received (instants with their nanoseconds:
    /// a restored fact is the fact the replay computed).
    public var facts: [VerdictFact]

    public init(identity: BindingIdentities.Identity? = nil, lastWritten: DeviceBits? = nil, facts: [VerdictFact] = [])
    {
        self.identity = identity
        self.lastWritten = lastWritten
        self.facts = facts
    }

    /// Whether a mandate names the binding.
    public var isMandated: Bool { identity != nil }

    /// Adds a received verdict's fact after the earlier ones. Its strings are the ones the state holds
    /// already wherever they are equal — the binding's name, case id and accused keys those of the previous
    /// fact (or the identity's user), the authority and appellate `shared`'s — so a binding's facts do not
    /// each keep a copy: at 10^6 write entries the copies were a quarter of the verifier's heap (BENCHMARKS.md).
    /// The fact is equal to the one given.
    public mutating func receive(_ fact: VerdictFact, shared: inout SharedStrings) {
        let previous = facts.last
        /// `held` when it is equal to `text` (the one copy kept), else `text`.
        func reused(_ text: WireString, _ held: WireString?) -> WireString {
            if let held, held == text { held } else { text }
        }
        let accused: [WireString]
        if let previous, previous.accusedKeys == fact.accusedKeys {
            accused = previous.accusedKeys
        } else {
            accused = fact.accusedKeys.map { reused(reused($0, identity?.user), previous?.accusedKeys.first) }
        }
        facts.append(
            VerdictFact(
                ref: fact.ref, caseId: reused(fact.caseId, previous?.caseId), authority: shared.share(fact.authority),
                deviceBinding: reused(fact.deviceBinding, previous?.deviceBinding), disposition: fact.disposition,
                decidedAt: fact.decidedAt, executeAfter: fact.executeAfter, banExpires: fact.banExpires,
                receivedAt: fact.receivedAt, decisionDeadline: fact.decisionDeadline,
                externalAppellate: fact.externalAppellate.map { shared.share($0) }, accusedKeys: accused))
    }
}

/// Every binding's record, layered over its saved table (`LayeredMap`): `bindings.table` in the auditor's
/// state, `onym-ledger-writer-bindings.table` in the writer's.
public typealias BindingTable = LayeredMap<BindingRecord.Codec>

extension BindingRecord {
    /// A record's bytes in the table (key: the binding's UTF-8). Value: a flags byte (1 identity, 2 last
    /// written, 4 its case-open bit, 8 its banned bit); the identity's user and acceptance; the count of
    /// facts, then each fact — content address (32 bytes), case id, authority, disposition (0 open case,
    /// 1 ban, 2 dismiss), decided and received instants, a flags byte for the optional execute-after,
    /// ban-expiry and decision-deadline instants (1, 2, 4) and external appellate (8), those present, and
    /// the accused keys (count, then each). Strings are length-prefixed UTF-8, integers LEB128, instants
    /// zigzag seconds then nanoseconds (`ByteWriter`).
    public enum Codec: TableCodec {
        public static var kind: String { "bindings" }

        public static func bytes(of key: WireString) -> [UInt8] { Array(key.text.utf8) }

        public static func key(from bytes: [UInt8]) -> WireString? {
            String(validating: bytes, as: UTF8.self).map { WireString($0) }
        }

        public static func precedes(_ left: WireString, _ right: WireString) -> Bool { left < right }

        public static func bytes(of record: BindingRecord) -> [UInt8] {
            var out = ByteWriter(reserving: 64 + 160 * record.facts.count)
            var flags: UInt8 = record.identity == nil ? 0 : 1
            if let bits = record.lastWritten { flags |= 2 | (bits.caseOpen ? 4 : 0) | (bits.banned ? 8 : 0) }
            out.byte(flags)
            if let identity = record.identity {
                out.string(identity.user)
                out.instant(identity.acceptedAt)
            }
            out.count(record.facts.count)
            for fact in record.facts {
                out.address(fact.ref)
                out.string(fact.caseId)
                out.string(fact.authority)
                out.byte(code(fact.disposition))
                out.instant(fact.decidedAt)
                out.instant(fact.receivedAt)
                let optionals: [Instant?] = [fact.executeAfter, fact.banExpires, fact.decisionDeadline]
                var present: UInt8 = fact.externalAppellate == nil ? 0 : 8
                for (bit, value) in optionals.enumerated() where value != nil { present |= 1 << UInt8(bit) }
                out.byte(present)
                for value in optionals { if let value { out.instant(value) } }
                if let appellate = fact.externalAppellate { out.string(appellate) }
                out.count(fact.accusedKeys.count)
                for key in fact.accusedKeys { out.string(key) }
            }
            return out.bytes
        }

        public static func value(from bytes: [UInt8], key binding: WireString) -> BindingRecord? {
            try? read(bytes, binding: binding)
        }

        /// The record in `bytes`, which belong to `binding` (the facts name it).
        static func read(_ bytes: [UInt8], binding: WireString) throws(ByteReader.Malformed) -> BindingRecord {
            var reader = ByteReader(bytes)
            let flags = try reader.byte()
            guard flags < 16, flags & 2 != 0 || flags & 12 == 0 else { throw ByteReader.Malformed() }
            var record = BindingRecord()
            if flags & 1 != 0 {
                record.identity = BindingIdentities.Identity(
                    user: try reader.wireString(), acceptedAt: try reader.instant())
            }
            if flags & 2 != 0 { record.lastWritten = DeviceBits(caseOpen: flags & 4 != 0, banned: flags & 8 != 0) }
            let factCount = try reader.count()
            record.facts.reserveCapacity(factCount)
            var shared = SharedStrings()
            for _ in 0..<factCount {
                let ref = try reader.address()
                let caseId = try reader.wireString()
                let authority = try reader.wireString()
                guard let disposition = disposition(try reader.byte()) else { throw ByteReader.Malformed() }
                let decidedAt = try reader.instant()
                let receivedAt = try reader.instant()
                let present = try reader.byte()
                guard present < 16 else { throw ByteReader.Malformed() }
                let executeAfter = present & 1 != 0 ? try reader.instant() : nil
                let banExpires = present & 2 != 0 ? try reader.instant() : nil
                let decisionDeadline = present & 4 != 0 ? try reader.instant() : nil
                let externalAppellate = present & 8 != 0 ? try reader.wireString() : nil
                var accused: [WireString] = []
                for _ in 0..<(try reader.count()) { accused.append(try reader.wireString()) }
                record.receive(
                    VerdictFact(
                        ref: ref, caseId: caseId, authority: authority, deviceBinding: binding,
                        disposition: disposition, decidedAt: decidedAt, executeAfter: executeAfter,
                        banExpires: banExpires, receivedAt: receivedAt, decisionDeadline: decisionDeadline,
                        externalAppellate: externalAppellate, accusedKeys: accused),
                    shared: &shared)
            }
            guard reader.atEnd else { throw ByteReader.Malformed() }
            return record
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
}
