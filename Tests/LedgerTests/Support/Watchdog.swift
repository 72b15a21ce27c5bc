import Dispatch
import Foundation
import Testing

/// Runs a test's blocking `body` and fails the test — instead of hanging the whole suite — when `body` has
/// not returned after `bound`. The bound is generous (a working run takes a small fraction of it): this is a
/// watchdog for hangs, not a timing assertion, and nothing is measured when `body` returns.
///
/// `body` runs in a task of its own that inherits the test's context, so its expectations are the test's,
/// on a thread of its own (``BlockingExecutor``): a hung `body` cannot starve the tasks that run the other
/// tests and the watchdog. It cannot be cancelled either: it is left behind, and the test fails naming the
/// bound.
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
        Task(executorPreference: BlockingExecutor()) {
            do { try body() } catch { Issue.record(error, sourceLocation: sourceLocation) }
            answer.give(true)
            watchdog.cancel()
        }
    }
    if !finished {
        Issue.record("still running after \(bound): a hang, not an answer", sourceLocation: sourceLocation)
    }
}

/// Runs its jobs on a serial dispatch queue of its own, off the cooperative pool (two threads on a
/// two-core machine, which two blocked tests would take whole).
private final class BlockingExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "onym-ledger.tests.blocking")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
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
