import LedgerStore
import LedgerFormat

/// Reference §3.14, docs/FORMAT.md "Write-log entries": the write log is gapless from 1, each entry links to the
/// previous entry's hash (`genesis` first), each `entryHash` recomputes from the entry's fields, and each entry sits in
/// the file its sequence names.
public struct ChainLinkPolicy: LedgerPolicy {
    public static let name = "ChainLinkPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        var failures: [PolicyFailure] = []
        for file in step.files {
            guard let entry = file.entry, case .logEntry(let named) = file.meaning, named != entry.sequence else {
                continue
            }
            failures.append(
                failure(
                    step, path: file.path, record: "sequence \(entry.sequence)",
                    "the file of entry \(named) holds entry \(entry.sequence): entries were moved or swapped"))
        }
        let entries = step.files.compactMap { file in file.entry.map { (file.path, $0) } }.sorted {
            $0.1.sequence < $1.1.sequence
        }
        var expected = state.logSize + 1
        var head = state.logHead
        for (path, entry) in entries {
            // Named only in a failure: the name costs a string a write-log entry, nearly always unused.
            var record: String { "sequence \(entry.sequence)" }
            if entry.sequence != expected {
                failures.append(
                    failure(
                        step, path: path, record: record,
                        "expected sequence \(expected) next; the log has a gap or a reordering"))
            }
            if entry.previousHash != head {
                failures.append(
                    failure(
                        step, path: path, record: record,
                        "previousHash \(entry.previousHash) does not link to \(head)"))
            }
            if entry.recomputedHash != entry.entryHash {
                failures.append(
                    failure(
                        step, path: path, record: record,
                        "entryHash \(entry.entryHash) but the fields hash to \(entry.recomputedHash)"
                    ))
            }
            expected = entry.sequence + 1
            head = entry.entryHash
        }
        return failures
    }
}
