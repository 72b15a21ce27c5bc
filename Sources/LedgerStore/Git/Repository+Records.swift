import LedgerFormat

extension Repository {
    /// One record file a batch folder holds.
    public struct BatchFile: Sendable {
        public let meaning: LedgerLayout.PathMeaning
        public let batch: Int64
        public let entry: TreeEntry
    }

    /// Every record and manifest signature in `commit`'s batch folders, in batch order (each batch's files
    /// in path order): listed from the trees, never looked up by path, contents unread. Names that are not
    /// on the whitelist are skipped (the verifier reports them).
    public func batchFiles(inCommit commit: ObjectID) throws(GitError) -> [BatchFile] {
        guard let root = try entry(at: LedgerLayout.batchesFolder, inCommit: commit), root.kind == .tree else {
            return []
        }
        var files: [BatchFile] = []
        for middle in try treeEntries(root.id) where middle.kind == .tree {
            for batch in try treeEntries(middle.id) where batch.kind == .tree {
                for kind in try treeEntries(batch.id) where kind.kind == .tree {
                    for fanOut in try treeEntries(kind.id) where fanOut.kind == .tree {
                        let folder =
                            "\(LedgerLayout.batchesFolder)/\(middle.name)/\(batch.name)/\(kind.name)/"
                            + "\(fanOut.name)/"
                        for file in try treeEntries(fanOut.id) where file.kind == .blob {
                            guard let located = LedgerLayout.locate(folder + file.name), let number = located.batch
                            else { continue }
                            files.append(BatchFile(meaning: located.meaning, batch: number, entry: file))
                        }
                    }
                }
            }
        }
        return files
    }

    /// The record index of `commit`: which batch stores each record (``RecordIndex``), rebuilt from its trees.
    public func recordIndex(inCommit commit: ObjectID) throws(GitError) -> RecordIndex {
        RecordIndex(try batchFiles(inCommit: commit))
    }

    /// Every write-log entry file at `commit`, in sequence order (the log's folders and names are
    /// zero-padded, so tree order is sequence order): listed from the trees, never looked up by path.
    public func logEntries(inCommit commit: ObjectID) throws(GitError) -> [TreeEntry] {
        guard let root = try entry(at: LedgerLayout.logFolder, inCommit: commit), root.kind == .tree else { return [] }
        var files: [TreeEntry] = []
        for first in try treeEntries(root.id) where first.kind == .tree {
            for second in try treeEntries(first.id) where second.kind == .tree {
                files += try treeEntries(second.id).filter { $0.kind == .blob && $0.name.hasSuffix(".json") }
            }
        }
        return files
    }

    /// The files a commit of `tree` on `parentTree` adds to the ledger's transparency log (`LedgerLog`):
    /// every whitelisted file it adds or changes except the checkpoint, with the SHA-256 of its bytes. A file
    /// over the record limit is left out, as the verifier, which refuses it unread, leaves it out.
    public func loggedFiles(from parentTree: ObjectID?, to tree: ObjectID) throws(GitError)
        -> [(path: String, sha256: ContentAddress)]
    {
        var files: [(path: String, sha256: ContentAddress)] = []
        for change in try diffTrees(old: parentTree, new: tree) {
            guard change.kind != .deleted, let entry = change.new, entry.kind == .blob,
                LedgerLayout.classify(change.path) != nil,
                LedgerLog.isLeaf(change.path, replacing: change.kind == .modified),
                try blobSize(entry.id) <= Limits.maxRecordBytes
            else { continue }
            files.append((change.path, SHA256.hash(try readBlob(entry.id, limit: Limits.maxRecordBytes))))
        }
        return files
    }
}
