import LedgerStore
import LedgerFormat

/// docs/FORMAT.md, "Repository": nothing is ever modified or deleted, and nothing is published twice. The files a
/// commit may replace are `keys/allowed_signers` (a rotation), `checkpoint` (every commit's, judged by the
/// CheckpointPolicy) and a witness's `cosignatures/<key ID>` (its latest, judged by the CosignaturePolicy);
/// `ledger.json` is the DescriptorPolicy's. A
/// record (or a manifest's signature) is stored once: a second copy under the same kind and content
/// address in a later batch — another receipt for a verdict, a mandate with other signatures — is a
/// republication (format version 2 names records by batch, so git alone would not see it).
public struct AppendOnlyPolicy: LedgerPolicy {
    public static let name = "AppendOnlyPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        step.changes.compactMap { change in
            guard change.path != LedgerLayout.descriptorPath else { return nil }
            switch change.kind {
            case .added:
                guard change.objectKind == .blob, let located = change.located,
                    let key = RecordIndex.Key(located.meaning), let batch = state.records.batch(of: key)
                else { return nil }
                let earlier =
                    key.kind.map { LedgerLayout.recordPath($0, key.address, batch: batch) }
                    ?? LedgerLayout.manifestSignaturePath(key.address, batch: batch)
                return failure(
                    step, path: change.path, record: key.address.hex,
                    "published again: batch \(batch) already holds it (\(earlier))")
            case .modified:
                if change.objectKind == .blob && LedgerLog.isReplaceable(change.path) { return nil }
                return failure(step, path: change.path, "modified after it was published")
            case .deleted:
                return failure(step, path: change.path, "deleted after it was published")
            }
        }
    }
}
