/// A gate-check answer in the reference wire shape (reference §3.10): Swift's synthesized enum
/// Codable, externally tagged with the payload under `_0`.
public enum GateResult: Sendable, Equatable {
    case clear
    case caseOpen([CaseNotice])
    case banned(BanState)
    case checkRequired(CheckRequiredReason)

    public enum CheckRequiredReason: String, Sendable, CaseIterable {
        // Server-emitted.
        case tokenInvalid, attestationUnavailable, reidentificationRequired
        // Client-derived (profile §5.2, reference §4.7).
        case offlineGraceExpired, neverChecked, clockRollback, backendRefused, enrollmentLost, sessionUnsignable
    }

    public var json: JSONObject {
        switch self {
        case .clear:
            return JSONObject([("clear", .object(JSONObject()))])
        case .caseOpen(let notices):
            return JSONObject([
                ("caseOpen", .object(JSONObject([("_0", .array(notices.map { .object($0.json) }))])))
            ])
        case .banned(let state):
            return JSONObject([("banned", .object(JSONObject([("_0", .object(state.json))])))])
        case .checkRequired(let reason):
            return JSONObject([("checkRequired", .object(JSONObject([("_0", .string(reason.rawValue))])))])
        }
    }

    public init(json: JSONObject) throws(LedgerFormatError) {
        guard json.count == 1, let member = json.members.first else {
            throw LedgerFormatError(.invalidValue, "a gate result has exactly one case key")
        }
        let payload = FieldReader(json, path: "$").object
        let reader = try FieldReader(payload, path: "$").object(member.key)
        switch member.key {
        case "clear":
            try reader.rejectUnknownKeys(allowed: [])
            self = .clear
        case "caseOpen":
            try reader.rejectUnknownKeys(allowed: ["_0"])
            var notices: [CaseNotice] = []
            for (index, element) in try reader.array("_0").enumerated() {
                guard case .object(let object) = element else {
                    throw LedgerFormatError(
                        .wrongType, "expected a case notice object", path: "$.caseOpen._0[\(index)]")
                }
                notices.append(try CaseNotice(json: object, path: "$.caseOpen._0[\(index)]"))
            }
            self = .caseOpen(notices)
        case "banned":
            try reader.rejectUnknownKeys(allowed: ["_0"])
            let state = try reader.object("_0")
            self = .banned(try BanState(json: state.object, path: state.path))
        case "checkRequired":
            try reader.rejectUnknownKeys(allowed: ["_0"])
            let text = try reader.string("_0")
            guard let reason = CheckRequiredReason(rawValue: text) else {
                throw LedgerFormatError(
                    .invalidValue, "unknown checkRequired reason \"\(text)\"", path: "$.checkRequired._0")
            }
            self = .checkRequired(reason)
        default:
            throw LedgerFormatError(
                .invalidValue, "unknown gate result case \"\(member.key)\"", path: "$.\(member.key)")
        }
    }
}
