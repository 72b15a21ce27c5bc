extension Repository {
    /// One path that differs between two trees.
    public struct TreeChange: Sendable {
        public enum Kind: Sendable { case added, modified, deleted }
        public let kind: Kind
        public let path: String
        public let old: TreeEntry?
        public let new: TreeEntry?
    }

    /// Every file-level difference between two trees (nil = the empty tree), descending only into
    /// folders whose ids differ — so an append's diff costs its own paths, not the ledger's size. Built on
    /// ``changedEntries(old:new:)`` (the verifier's loader joins the same way on the trees' bytes, with
    /// `RawTree`): a file replaced by a folder of the same name is the file deleted and the folder's files
    /// added.
    public func diffTrees(old: ObjectID?, new: ObjectID?, prefix: String = "") throws(GitError) -> [TreeChange] {
        if old == new { return [] }
        var changes: [TreeChange] = []
        for (previous, entry) in try changedEntries(old: old, new: new) {
            let oldTree = previous.flatMap { $0.kind == .tree ? $0.id : nil }
            let newTree = entry.flatMap { $0.kind == .tree ? $0.id : nil }
            let name = (entry ?? previous)!.name
            let path = prefix + name
            if oldTree != nil || newTree != nil {
                changes += try diffTrees(old: oldTree, new: newTree, prefix: path + "/")
            }
            let oldFile = previous?.kind == .tree ? nil : previous
            let newFile = entry?.kind == .tree ? nil : entry
            switch (oldFile, newFile) {
            case (nil, let added?): changes.append(TreeChange(kind: .added, path: path, old: nil, new: added))
            case (let removed?, nil): changes.append(TreeChange(kind: .deleted, path: path, old: removed, new: nil))
            case (let before?, let after?):
                changes.append(TreeChange(kind: .modified, path: path, old: before, new: after))
            case (nil, nil): break
            }
        }
        return changes
    }
}
