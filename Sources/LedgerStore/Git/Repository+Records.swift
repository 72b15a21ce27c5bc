import LedgerFormat

extension Repository {
    /// The record files of one stored kind in `commit`'s tree: the `.json` blobs of its two-level
    /// fan-out folders (`verdicts/ab/cd/<hex>.json`), in path order.
    public func recordEntries(_ kind: any StoredRecord.Type, inCommit commit: ObjectID) throws(GitError)
        -> [TreeEntry]
    {
        try jsonFilesTwoLevelsBelow(kind.folder, inCommit: commit)
    }

    /// Every write-log entry file at `commit`, in sequence order (the log's folders and names are
    /// zero-padded, so tree order is sequence order): listed from the trees, never looked up by path.
    public func logEntries(inCommit commit: ObjectID) throws(GitError) -> [TreeEntry] {
        try jsonFilesTwoLevelsBelow(LedgerLayout.logFolder, inCommit: commit)
    }

    /// The `.json` blobs in the folders two levels below `folder` (`folder/a/b/*.json`), in tree order.
    private func jsonFilesTwoLevelsBelow(_ folder: String, inCommit commit: ObjectID) throws(GitError) -> [TreeEntry] {
        guard let root = try entry(at: folder, inCommit: commit), root.kind == .tree else { return [] }
        var files: [TreeEntry] = []
        for first in try treeEntries(root.id) where first.kind == .tree {
            for second in try treeEntries(first.id) where second.kind == .tree {
                files += try treeEntries(second.id).filter { $0.kind == .blob && $0.name.hasSuffix(".json") }
            }
        }
        return files
    }
}
