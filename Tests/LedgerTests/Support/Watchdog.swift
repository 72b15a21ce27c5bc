import Foundation
import Testing

/// Runs a test's blocking `body` and fails the test — instead of hanging the whole suite — when `body` has
/// not returned after `bound`. The bound is generous (a working run takes a small fraction of it): this is a
/// watchdog for hangs, not a timing assertion, and nothing is measured when `body` returns.
///
/// `body` runs in a task of its own that inherits the test's context, so its expectations are the test's.
/// A hung `body` cannot be cancelled: it is left behind, and the test fails naming the bound.
func failingIfHung(
    after bound: Duration = .seconds(300), sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () throws -> Void
) async {
    let finished = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let answer = AnswerOnce(continuation)
        let watchdog = Task {
            try? await Task.sleep(for: bound)
            answer.give(false)
        }
        Task {
            do { try body() } catch { Issue.record(error, sourceLocation: sourceLocation) }
            answer.give(true)
            watchdog.cancel()
        }
    }
    if !finished {
        Issue.record("still running after \(bound): a hang, not an answer", sourceLocation: sourceLocation)
    }
}

/// Resumes a continuation with the first answer given; later answers are dropped.
private final class AnswerOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Bool, Never>?

    init(_ continuation: CheckedContinuation<Bool, Never>) { self.continuation = continuation }

    func give(_ answer: Bool) {
        let waiting = lock.withLock { () -> CheckedContinuation<Bool, Never>? in
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: answer)
    }
}
