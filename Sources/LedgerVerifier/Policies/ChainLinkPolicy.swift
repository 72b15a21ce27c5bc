import LedgerWriter
import LedgerFormat

/// Reference §3.14, DESIGN §6.5: the write log is gapless from 1, each entry links to the previous
/// entry's hash (`genesis` first), and each `entryHash` recomputes from the entry's fields.
public struct ChainLinkPolicy: LedgerPolicy {
    public static let name = "ChainLinkPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        var failures: [PolicyFailure] = []
        let entries = step.files.compactMap { file in file.entry.map { (file.path, $0) } }.sorted {
            $0.1.sequence < $1.1.sequence
        }
        var expected = state.logSize + 1
        var head = state.logHead
        for (path, entry) in entries {
            let record = "sequence \(entry.sequence)"
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
                        "previousHash \(entry.previousHash.prefix(16))… does not link to \(head.prefix(16))…"))
            }
            if entry.recomputedHash != entry.entryHash {
                failures.append(
                    failure(
                        step, path: path, record: record,
                        "entryHash \(entry.entryHash.prefix(16))… but the fields hash to \(entry.recomputedHash.prefix(16))…"
                    ))
            }
            expected = entry.sequence + 1
            head = entry.entryHash
        }
        return failures
    }
}
