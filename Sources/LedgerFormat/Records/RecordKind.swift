/// Every JSON shape onym-ledger reads — the stored kinds, taken from ``StoredRecords/kinds`` (so a stored
/// kind is named as it names itself, never matched by a second spelling), and the wire-only shapes
/// (verdict submissions, write-log entries, case notices, ban states, gate answers) — recognized by shape:
/// a stored kind by the telling fields it declares (``StoredRecord/tellingFields``), a wire-only shape by
/// the ones stated here.
public struct RecordKind: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// How an object is told to be of a shape.
    public enum Telling: Sendable {
        /// It has every one of these fields.
        case fields([String])
        /// It has exactly one member, named one of these (a gate answer's tag).
        case soleMember(oneOf: [String])

        func tells(_ object: JSONObject) -> Bool {
            switch self {
            case .fields(let fields): fields.allSatisfy { object[$0] != nil }
            case .soleMember(let tags): object.count == 1 && object.keys.first.map(tags.contains) == true
            }
        }
    }

    /// The kind's name (`mandate`, `verdict-submission`): its schema's name in `schemas/`.
    public let rawValue: String
    /// The stored kind this shape is, when it is one.
    public let stored: (any StoredRecord.Type)?
    /// What tells an object is of this shape.
    public let telling: Telling

    private init(_ name: String, telling: Telling) {
        rawValue = name
        stored = nil
        self.telling = telling
    }

    /// The shape of a stored kind.
    public init(stored kind: any StoredRecord.Type) {
        rawValue = kind.kindName
        stored = kind
        telling = .fields(kind.tellingFields)
    }

    public static func == (lhs: RecordKind, rhs: RecordKind) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    public var description: String { rawValue }

    public static let verdictSubmission = RecordKind("verdict-submission", telling: .fields(["consentedManifest"]))
    public static let writeLogEntry = RecordKind("write-log-entry", telling: .fields(["entryHash"]))
    public static let caseNotice = RecordKind("case-notice", telling: .fields(["evidenceSummary"]))
    public static let banState = RecordKind("ban-state", telling: .fields(["authorityContact", "verdictRef"]))
    public static let gateResult = RecordKind(
        "gate-result", telling: .soleMember(oneOf: ["clear", "caseOpen", "banned", "checkRequired"]))

    public static var profile: RecordKind { .init(stored: EnforcementProfile.self) }
    public static var manifest: RecordKind { .init(stored: AuthorityManifest.self) }
    public static var mandate: RecordKind { .init(stored: Mandate.self) }
    public static var verdict: RecordKind { .init(stored: Verdict.self) }
    public static var receipt: RecordKind { .init(stored: VerdictReceipt.self) }
    public static var statusAttempt: RecordKind { .init(stored: StatusAttempt.self) }
    public static var compromiseReport: RecordKind { .init(stored: CompromiseReport.self) }
    public static var revocation: RecordKind { .init(stored: RevocationDetermination.self) }
    public static var grant: RecordKind { .init(stored: Grant.self) }
    public static var redemption: RecordKind { .init(stored: Redemption.self) }

    /// The stored kinds, then the wire-only shapes.
    public static var allCases: [RecordKind] {
        StoredRecords.kinds.map { RecordKind(stored: $0) } + [
            verdictSubmission, writeLogEntry, caseNotice, banState, gateResult,
        ]
    }

    /// Every shape whose telling fields `object` has: one for any record of the format (each kind's
    /// telling fields are required in its schema and not all present in any other's).
    public static func matches(_ object: JSONObject) -> [RecordKind] {
        allCases.filter { $0.telling.tells(object) }
    }

    /// Recognizes a record by its telling fields; nil when no kind, or more than one, tells it.
    public static func recognize(_ object: JSONObject) -> RecordKind? {
        let found = matches(object)
        return found.count == 1 ? found[0] : nil
    }
}
