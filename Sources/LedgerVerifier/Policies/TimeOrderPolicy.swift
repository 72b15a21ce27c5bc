import LedgerFormat
import LedgerStore

/// Time is part of the proof (docs/FORMAT.md, "Time"): commit times never decrease, and
/// every time a record states lies within its commit's window — events the vendor reports at or after
/// the previous commit, everything at or before its own commit. The rule is `TimeWindow`, the same
/// code the writer applies to every batch.
public struct TimeOrderPolicy: LedgerPolicy {
    public static let name = TimeWindow.ruleName

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        let window = TimeWindow.Window(parentTime: state.previousTime, commitTime: step.commit.time)
        var failures: [PolicyFailure] = []
        if let reason = TimeWindow.commitViolation(window) { failures.append(failure(step, reason)) }
        for file in step.files {
            guard case .success(let content) = file.content else { continue }
            for reason in TimeWindow.violations(content.timedFields, in: window) {
                failures.append(failure(step, path: file.path, record: content.recordName, reason))
            }
        }
        return failures
    }
}

extension FileContent {
    /// The times the decoded record states that the window rule constrains (none for a file that is no record).
    var timedFields: [TimeWindow.Field] {
        switch self {
        case .record(let record): record.timedFields
        case .entry(let value): value.timedFields
        default: []
        }
    }

    /// How findings name the record: its content address, or a write entry's sequence.
    var recordName: String? {
        if case .entry(let entry) = self { return "sequence \(entry.sequence)" }
        return address?.hex
    }
}
