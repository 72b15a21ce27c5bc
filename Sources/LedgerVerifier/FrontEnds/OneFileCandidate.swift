import LedgerFormat
import LedgerStore

/// One input file as the commit that would add it, judged by the same policy objects `verify` and
/// `append` run (``StandardLedgerPolicy``): how `inspect` checks what a file alone can show without a
/// rulebook of its own.
enum OneFileCandidate {
    /// Write-log entries as the files of one commit, judged against the log they say they continue:
    /// the empty log (head `genesis`) when the first is entry 1 — reference §3.14, the log is gapless from
    /// 1 — else a log whose last entry is the one the first entry's `previousHash` names.
    static func judge(entries: [WriteLogEntry], policies: [any LedgerPolicy]) -> [PolicyFailure] {
        let files = entries.map { entry in
            LoadedFile(
                path: LedgerLayout.logEntryPath(entry.sequence), meaning: .logEntry(entry.sequence), bytes: [],
                isCanonical: true, content: .success(.entry(entry)))
        }
        var state = ReplayState(trustRoot: TrustRoot(), now: Instant(seconds: 0))
        if let first = entries.first, first.sequence > 1 {
            state.logSize = first.sequence - 1
            state.logHead = first.previousHash
        }
        return judge(files, state: state, policies: policies)
    }

    /// `files` as one commit on top of `state`.
    static func judge(_ files: [LoadedFile], state: ReplayState, policies: [any LedgerPolicy]) -> [PolicyFailure] {
        let none = ObjectID(rawBytes: [UInt8](repeating: 0, count: 20))!
        let commit = CommitInfo(id: none, tree: none, parents: [], message: "", time: 0, rawHeader: "")
        let step = CommitStep(
            index: state.commitsSeen, commit: commit, parentTree: nil, signature: .missing, changes: [],
            files: files, trailers: nil, anomalies: [])
        return policies.flatMap { $0.evaluate(step, state: state) }
    }
}
