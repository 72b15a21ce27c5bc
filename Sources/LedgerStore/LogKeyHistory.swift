public import LedgerFormat

/// The log keys a ledger's descriptor declared over its history (docs/FORMAT.md, "Log handover"), read from
/// the descriptor at each commit that changed it. Used where no verified state holds them: `keys list`, and a
/// replay state rebuilt without a checkpoint (a handover may not hand the log back to a retired key).
public enum LogKeyHistory {
    /// The log key in force from each commit that changed it (the first commit, then each handover), oldest
    /// first; nil where a descriptor declares none or does not decode. Read as the repository is: `verify`
    /// judges it.
    public static func keys(_ repository: Repository, endingAt tip: ObjectID) throws -> [(
        commit: ObjectID, key: NoteKey?
    )] {
        var keys: [(commit: ObjectID, key: NoteKey?)] = []
        var lastBlob: ObjectID?
        for commit in try repository.history(from: tip) {
            guard let entry = try repository.entry(at: LedgerLayout.descriptorPath, inCommit: commit),
                entry.id != lastBlob
            else { continue }
            lastBlob = entry.id
            let bytes = try repository.readBlob(entry.id, limit: Limits.maxRecordBytes)
            let key = (try? LedgerDescriptor(json: try CanonicalJSON.parse(bytes)))?.log
            if keys.last.map({ $0.key != key }) ?? true { keys.append((commit, key)) }
        }
        return keys
    }
}
