public import LedgerFormat

/// The part of the replay state that is otherwise rebuilt from every receipted verdict in the ledger —
/// the evaluator's facts by binding, revocation effects, status attempts and manifests — kept in local
/// state beside a checkpoint, so a run that continues from the checkpoint reads only the new commits.
///
/// Local state, never input: the auditor's own checkpoint (``AuditorState``), or the writer's state file
/// in its git directory. Instants keep their nanoseconds (`[seconds, nanoseconds]`), so a restored fact
/// is the fact the replay computed.
public struct ReplaySnapshot: Sendable {
    public var facts: [String: [VerdictFact]]
    public var revocations: [DesignationRevocation.Effect]
    public var statusAttempts: [StatusAttempt]
    public var manifests: [AuthorityManifest]

    public init(of state: ReplayState) {
        facts = state.facts
        revocations = state.revocations
        statusAttempts = state.statusAttempts
        manifests = state.manifests
    }

    /// Puts the snapshot into `state`.
    func restore(into state: inout ReplayState) {
        state.facts = facts
        state.revocations = revocations
        state.statusAttempts = statusAttempts
        state.manifests = manifests
    }

    // MARK: - JSON

    public var json: JSONObject {
        JSONObject([
            (
                "facts",
                .object(
                    JSONObject(
                        facts.sorted { $0.key < $1.key }.map { binding, facts in
                            (binding, JSONValue.array(facts.map(Self.encode)))
                        }))
            ),
            (
                "revocations",
                .array(
                    revocations.map {
                        .array([.string($0.authority), Self.encode($0.effectiveAt), Self.encode($0.determinedAt)])
                    })
            ),
            ("statusAttempts", .array(statusAttempts.map { .object($0.json) })),
            ("manifests", .array(manifests.map { .string(Base64.encode($0.rawBytes)) })),
        ])
    }

    public init(json: JSONObject) throws(LedgerFormatError) {
        let reader = FieldReader(json, path: "$.replay")
        var facts: [String: [VerdictFact]] = [:]
        for member in try reader.object("facts").object.members {
            guard case .array(let list) = member.value else { throw Self.malformed("facts") }
            facts[member.key] = try list.map { (value: JSONValue) throws(LedgerFormatError) in
                try Self.decodeFact(value, binding: member.key)
            }
        }
        self.facts = facts
        revocations = try reader.array("revocations").map { (value: JSONValue) throws(LedgerFormatError) in
            guard case .array(let fields) = value, fields.count == 3, case .string(let authority) = fields[0] else {
                throw Self.malformed("revocations")
            }
            return DesignationRevocation.Effect(
                authority: authority, effectiveAt: try Self.instant(fields[1]),
                determinedAt: try Self.instant(fields[2]))
        }
        statusAttempts = try reader.array("statusAttempts").map { (value: JSONValue) throws(LedgerFormatError) in
            guard case .object(let object) = value else { throw Self.malformed("statusAttempts") }
            return try StatusAttempt(json: object)
        }
        manifests = try reader.array("manifests").map { (value: JSONValue) throws(LedgerFormatError) in
            guard case .string(let text) = value, let bytes = Base64.decode(text) else {
                throw Self.malformed("manifests")
            }
            return try AuthorityManifest(rawBytes: bytes)
        }
    }

    /// A fact as a positional array: ref, caseId, authority, disposition, decidedAt, executeAfter,
    /// banExpires, receivedAt, decisionDeadline, externalAppellate, accusedKeys (absent values are null).
    private static func encode(_ fact: VerdictFact) -> JSONValue {
        .array([
            .string(fact.ref.hex), .string(fact.caseId), .string(fact.authority), .string(fact.disposition.rawValue),
            encode(fact.decidedAt), fact.executeAfter.map(encode) ?? .null, fact.banExpires.map(encode) ?? .null,
            encode(fact.receivedAt), fact.decisionDeadline.map(encode) ?? .null,
            fact.externalAppellate.map { .string($0) } ?? .null, .array(fact.accusedKeys.map { .string($0) }),
        ])
    }

    private static func decodeFact(_ value: JSONValue, binding: String) throws(LedgerFormatError) -> VerdictFact {
        guard case .array(let fields) = value, fields.count == 11,
            case .string(let refText) = fields[0], let ref = ContentAddress(hex: refText),
            case .string(let caseId) = fields[1], case .string(let authority) = fields[2],
            case .string(let dispositionText) = fields[3],
            let disposition = Verdict.Disposition(rawValue: dispositionText),
            case .array(let keys) = fields[10]
        else { throw malformed("facts") }
        let externalAppellate: String?
        switch fields[9] {
        case .null: externalAppellate = nil
        case .string(let text): externalAppellate = text
        default: throw malformed("facts")
        }
        return VerdictFact(
            ref: ref, caseId: caseId, authority: authority, deviceBinding: binding, disposition: disposition,
            decidedAt: try instant(fields[4]), executeAfter: try optionalInstant(fields[5]),
            banExpires: try optionalInstant(fields[6]), receivedAt: try instant(fields[7]),
            decisionDeadline: try optionalInstant(fields[8]), externalAppellate: externalAppellate,
            accusedKeys: try keys.map { (key: JSONValue) throws(LedgerFormatError) in
                guard case .string(let text) = key else { throw malformed("facts") }
                return text
            })
    }

    private static func encode(_ instant: Instant) -> JSONValue {
        .array([.integer(instant.seconds), .integer(Int64(instant.nanoseconds))])
    }

    private static func instant(_ value: JSONValue) throws(LedgerFormatError) -> Instant {
        guard case .array(let parts) = value, parts.count == 2, case .integer(let seconds) = parts[0],
            case .integer(let nanoseconds) = parts[1], (0..<1_000_000_000).contains(nanoseconds)
        else { throw malformed("an instant") }
        return Instant(seconds: seconds, nanoseconds: Int32(nanoseconds))
    }

    private static func optionalInstant(_ value: JSONValue) throws(LedgerFormatError) -> Instant? {
        if case .null = value { return nil }
        return try instant(value)
    }

    private static func malformed(_ what: String) -> LedgerFormatError {
        LedgerFormatError(.invalidValue, "the replay snapshot's \(what) is malformed", path: "$.replay")
    }
}
