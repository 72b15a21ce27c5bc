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
    /// folders whose ids differ — so an append's diff costs its own paths, not the ledger's size.
    public func diffTrees(old: ObjectID?, new: ObjectID?, prefix: String = "") throws(GitError) -> [TreeChange] {
        if old == new { return [] }
        let oldEntries = try old.map { (id: ObjectID) throws(GitError) in try treeEntries(id) } ?? []
        let newEntries = try new.map { (id: ObjectID) throws(GitError) in try treeEntries(id) } ?? []
        var oldByName: [String: TreeEntry] = [:]
        for entry in oldEntries { oldByName[entry.name] = entry }
        var changes: [TreeChange] = []
        var seen: Set<String> = []
        for entry in newEntries {
            seen.insert(entry.name)
            let path = prefix + entry.name
            guard let previous = oldByName[entry.name] else {
                if entry.kind == .tree {
                    changes += try diffTrees(old: nil, new: entry.id, prefix: path + "/")
                } else {
                    changes.append(TreeChange(kind: .added, path: path, old: nil, new: entry))
                }
                continue
            }
            if previous.id == entry.id && previous.mode == entry.mode { continue }
            if previous.kind == .tree && entry.kind == .tree {
                changes += try diffTrees(old: previous.id, new: entry.id, prefix: path + "/")
            } else {
                changes.append(TreeChange(kind: .modified, path: path, old: previous, new: entry))
            }
        }
        for entry in oldEntries where !seen.contains(entry.name) {
            let path = prefix + entry.name
            if entry.kind == .tree {
                changes += try diffTrees(old: entry.id, new: nil, prefix: path + "/")
            } else {
                changes.append(TreeChange(kind: .deleted, path: path, old: entry, new: nil))
            }
        }
        return changes
    }
}
