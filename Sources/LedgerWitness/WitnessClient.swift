import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One `add-checkpoint` POST (http or https) with a deadline and a bounded answer.
enum WitnessClient {
    struct Answer: Sendable {
        let status: Int
        let contentType: String
        let body: [UInt8]
    }

    /// Most answer bytes read: a witness's answer is a few signature lines.
    static let maxAnswerBytes = 64 * 1024

    /// POSTs `body` to `<url>/add-checkpoint`; the error says what went wrong (unreachable, timed out, too big).
    static func post(_ body: String, to url: URL, timeout: Double) -> Result<Answer, WitnessSubmission.Failure> {
        var request = URLRequest(url: url.appendingPathComponent("add-checkpoint"))
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.timeoutInterval = timeout
        request.setValue("text/plain; charset=utf-8", forHTTPHeaderField: "Content-Type")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let collector = Collector()
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        session.dataTask(with: request).resume()
        // The session's own timeouts end the task; this wait is a backstop a little past them.
        guard collector.done.wait(timeout: .now() + timeout + 5) == .success else {
            return .failure(.init("no answer within \(Int(timeout)) s"))
        }
        return collector.result()
    }

    /// Gathers one task's answer, cancelling it past ``maxAnswerBytes``.
    private final class Collector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var response: HTTPURLResponse?
        private var data: [UInt8] = []
        private var failure: String?

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            lock.lock()
            defer { lock.unlock() }
            self.data += data
            if self.data.count > WitnessClient.maxAnswerBytes {
                failure = "the answer is over \(WitnessClient.maxAnswerBytes) bytes"
                dataTask.cancel()
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            lock.lock()
            response = task.response as? HTTPURLResponse
            if let error, failure == nil {
                failure = (error as? URLError)?.code == .timedOut ? "timed out" : error.localizedDescription
            }
            lock.unlock()
            done.signal()
        }

        func result() -> Result<Answer, WitnessSubmission.Failure> {
            lock.lock()
            defer { lock.unlock() }
            if let failure { return .failure(.init(failure)) }
            guard let response else { return .failure(.init("no HTTP answer")) }
            let type = response.value(forHTTPHeaderField: "Content-Type") ?? ""
            return .success(Answer(status: response.statusCode, contentType: type, body: data))
        }
    }
}
