import Dispatch

/// Frees judged commits on a thread of their own.
///
/// A commit's step holds every record it stores, decoded: tens of thousands of small objects in a large
/// batch. Freeing them is work the judging thread — the critical path of a full verify — need not wait
/// for; the reading thread's core has room (it waits for a free slot most of a run). A serial queue frees
/// the steps in the order they were judged, one at a time, so at most the steps judged faster than they
/// are freed are held.
final class StepDisposal: Sendable {
    private let queue = DispatchQueue(label: "onym-ledger.step-disposal")

    /// Takes the last reference to `step` and frees it on the disposal thread.
    func dispose(_ step: consuming CommitStep) {
        let held = StepBox(step)
        queue.async { held.step = nil }
    }

    /// Returns when every step handed over so far is freed.
    func drain() { queue.sync {} }
}

/// The one reference to a step on its way to the disposal thread.
private final class StepBox: @unchecked Sendable {
    var step: CommitStep?
    init(_ step: consuming CommitStep) { self.step = step }
}
