/// The vendor's receipt for a delivered verdict: the reference's `VerdictAccepted`
/// (`{"verdictRef","status"}`, reference §3.6) plus `receivedAt`, which the replay needs — a
/// verdict's `decidedAt` is not when the vendor knew it (docs/DECISIONS.md, "Records").
public final class VerdictReceipt: Sendable {
    public enum Status: String, Sendable {
        /// Execute at the device's next gate session.
        case queued
        /// A valid ban whose `executeAfter` is still in the future.
        case stored
    }

    public static let fields: Set<String> = ["verdictRef", "status", "receivedAt"]

    public let json: JSONObject
    public let verdictRef: ContentAddress
    public let status: Status
    public let receivedAt: Instant

    public init(json: JSONObject) throws(LedgerFormatError) {
        let reader = FieldReader(json)
        try reader.rejectUnknownKeys(allowed: Self.fields)
        verdictRef = try reader.contentAddress("verdictRef")
        let statusText = try reader.string("status")
        guard let status = Status(rawValue: statusText) else {
            throw LedgerFormatError(.invalidValue, "status must be queued or stored", path: "$.status")
        }
        self.status = status
        receivedAt = try reader.timestamp("receivedAt")
        self.json = json
    }

    public init(verdictRef: ContentAddress, status: Status, receivedAt: Instant) {
        self.verdictRef = verdictRef
        self.status = status
        self.receivedAt = receivedAt
        self.json = JSONObject([
            ("verdictRef", .string(verdictRef.hex)), ("status", .string(status.rawValue)),
            ("receivedAt", .string(receivedAt.rfc3339)),
        ])
    }
}
