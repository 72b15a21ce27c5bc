import LedgerFormat
import LedgerStore

/// docs/FORMAT.md "Transparency": every commit that adds to the ledger's transparency log
/// carries the C2SP checkpoint of the log after it — the origin and Ed25519 key the descriptor declares,
/// the number of leaves, exactly one signature line (the log key's, which verifies), and the RFC 6962 root of the leaves this verifier recomputed from every file of
/// every commit. Each checkpoint is therefore consistent with the one before it: both are roots of one
/// leaf sequence the verifier hashed itself.
public struct CheckpointPolicy: LedgerPolicy {
    public static let name = "CheckpointPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        let path = LedgerLayout.checkpointPath
        let file = step.files.first { $0.meaning == .checkpoint }
        let handover = step.changes.contains {
            $0.path == LedgerLayout.descriptorPath && $0.kind == .modified
        }
        guard !step.leafHashes.isEmpty || file != nil || handover else { return [] }
        guard let key = state.descriptor(for: step)?.log else {
            return [failure(step, path: LedgerLayout.descriptorPath, "the descriptor declares no log key (log)")]
        }
        guard let file else {
            return [
                failure(
                    step, path: path,
                    handover
                        ? "a log handover carries the new log's first checkpoint, and this commit carries none"
                        : "the commit adds \(step.leafHashes.count) leaves to the log but does not update its checkpoint"
                )
            ]
        }
        let note: SignedNote
        switch file.content {
        case .success(.checkpoint(let parsed)): note = parsed
        case .failure(let error): return [failure(step, path: path, error.reason)]
        default: return []
        }
        guard let head = TreeHead(text: note.text) else {
            return [failure(step, path: path, "not a C2SP checkpoint body (origin, size, base64 root)")]
        }
        var log = state.log
        for leaf in step.leafHashes { log.append(leaf) }
        var failures: [PolicyFailure] = []
        if !head.origin.hasSameBytes(as: key.name) {
            failures.append(failure(step, path: path, "origin \(head.origin); the descriptor's log is \(key.name)"))
        }
        if head.size != log.size {
            failures.append(
                failure(step, path: path, "states \(head.size) leaves; the log holds \(log.size) after this commit"))
        } else if head.root != log.root {
            failures.append(
                failure(
                    step, path: path,
                    "root \(Base64.encode(head.root.bytes)) is not the root of the log's leaves "
                        + "(\(Base64.encode(log.root.bytes)))"))
        }
        if let problem = note.checkpointSignatureProblem(logKey: key) {
            failures.append(failure(step, path: path, problem))
        }
        return failures
    }
}
