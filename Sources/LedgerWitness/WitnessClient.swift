import Foundation

/// One `add-checkpoint` POST (http or https) with a deadline and a bounded answer, through the project's
/// own ``HTTPClient`` (no URLSession: docs/DECISIONS.md).
enum WitnessClient {
    struct Answer: Sendable {
        let status: Int
        let contentType: String
        let body: [UInt8]
    }

    /// Most answer bytes read: a witness's answer is a few signature lines.
    static let maxAnswerBytes = 64 * 1024

    /// POSTs `body` to `<url>/add-checkpoint`; the error says what went wrong (unreachable, timed out, too
    /// big, not HTTP, a certificate that does not verify).
    static func post(_ body: String, to url: URL, timeout: Double) -> Result<Answer, WitnessSubmission.Failure> {
        HTTPClient.post(
            Array(body.utf8), contentType: "text/plain; charset=utf-8",
            to: url.appendingPathComponent("add-checkpoint"), timeout: timeout, maxAnswerBytes: maxAnswerBytes
        )
        .map { Answer(status: $0.status, contentType: $0.field("content-type") ?? "", body: $0.body) }
        .mapError { WitnessSubmission.Failure($0.description) }
    }
}
