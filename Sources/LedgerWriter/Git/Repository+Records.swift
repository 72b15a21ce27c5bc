import LedgerFormat

extension Repository {
    /// The record files of one stored kind in `commit`'s tree: the `.json` blobs of its two-level
    /// fan-out folders (`verdicts/ab/cd/<hex>.json`), in path order.
    public func recordEntries(_ kind: LedgerLayout.StoredKind, inCommit commit: ObjectID) throws(GitError)
        -> [TreeEntry]
    {
        guard let root = try entry(at: kind.rawValue, inCommit: commit), root.kind == .tree else { return [] }
        var records: [TreeEntry] = []
        for first in try treeEntries(root.id) where first.kind == .tree {
            for second in try treeEntries(first.id) where second.kind == .tree {
                records += try treeEntries(second.id).filter { $0.kind == .blob && $0.name.hasSuffix(".json") }
            }
        }
        return records
    }
}
