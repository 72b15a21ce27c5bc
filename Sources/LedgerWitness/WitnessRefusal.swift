/// Why a witness did not cosign, with the HTTP status tlog-witness gives that case (docs/WITNESS.md).
public struct WitnessRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public let status: Int
    public let description: String
    /// The witness's latest cosigned size, sent with a 409 (`Content-Type: text/x.tlog.size`).
    public let latestSize: Int?
    /// Seconds until the log's budget has room again, sent with a 429 as `Retry-After`.
    public let retryAfter: Int?

    public init(status: Int, _ description: String, latestSize: Int? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.description = description
        self.latestSize = latestSize
        self.retryAfter = retryAfter
    }

    /// 400: the body breaks the request grammar, or the old size is above the checkpoint's.
    public static func malformed(_ reason: String) -> WitnessRefusal { WitnessRefusal(status: 400, reason) }
    /// 404: "If the checkpoint origin is unknown, the witness MUST respond with a 404 Not Found".
    public static func unknownLog(_ origin: String) -> WitnessRefusal {
        WitnessRefusal(status: 404, "unknown log origin '\(origin.prefix(200))'")
    }
    /// 403: "If none of the signatures verify against a trusted public key, … 403 Forbidden".
    public static func forbidden(_ reason: String) -> WitnessRefusal { WitnessRefusal(status: 403, reason) }
    /// 409: the old size is not the size of the latest checkpoint this witness cosigned.
    public static func conflict(latest: Int) -> WitnessRefusal {
        WitnessRefusal(
            status: 409, "the old size does not match this witness's latest cosigned size \(latest)",
            latestSize: latest)
    }
    /// 422: the consistency proof does not verify (or a root does not match where the sizes are equal).
    public static func badProof(_ reason: String) -> WitnessRefusal { WitnessRefusal(status: 422, reason) }
    /// 429: the log's request budget is spent (docs/DECISIONS.md, "Witness rate limit").
    public static func rateLimited(retryAfter: Int) -> WitnessRefusal {
        WitnessRefusal(
            status: 429, "too many requests for this log; retry after \(retryAfter) s", retryAfter: retryAfter)
    }
    /// 500: the witness could not sign or could not remember what it signed; nothing was cosigned.
    public static func internalError(_ reason: String) -> WitnessRefusal { WitnessRefusal(status: 500, reason) }
}
