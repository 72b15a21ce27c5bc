import LedgerFormat
import LedgerStore

#if canImport(Glibc)
    import Glibc
#endif

/// The writer's local index of the device bindings the ledger's mandates name, so checking a write's
/// binding is one `stat`, not a read of every mandate (100 000 at 1M entries).
///
/// Kept in the git directory, never pushed: `onym-ledger/bindings/ab/<sha256(binding)>` marker files
/// and `onym-ledger/bindings.commit`, the commit they reflect. An index for an ancestor of the tip is
/// brought up to date from the mandates added since (a tree diff); a missing or unrelated one is
/// rebuilt from the tree. Markers are written before the commit file, so an interrupted update is
/// simply redone. It only speeds up the writer's own check — the verifier never reads it.
struct BindingCache {
    let root: String

    init(_ repository: Repository) {
        root = repository.gitDirectory + "onym-ledger/bindings"
    }

    private func markerPath(_ binding: String) -> String {
        let hex = SHA256.hash(Array(binding.utf8)).hex
        return "\(root)/\(hex.prefix(2))/\(hex)"
    }

    func contains(_ binding: String) -> Bool { access(markerPath(binding), F_OK) == 0 }

    /// Brings the index up to `tip`.
    func update(to tip: ObjectID, repository: Repository) throws {
        let commitFile = root + ".commit"
        let mandates = LedgerLayout.StoredKind.mandate.rawValue
        let cached = (try? String(contentsOfFileAtPath: commitFile)).flatMap {
            ObjectID(hexString: String($0.prefix(40)))
        }
        if cached == tip { return }
        let base: ObjectID?
        if let cached, (try? repository.isDescendant(tip, of: cached)) == true {
            base = cached
        } else {
            base = nil
        }
        let oldTree = try base.flatMap { try repository.entry(at: mandates, inCommit: $0)?.id }
        let newTree = try repository.entry(at: mandates, inCommit: tip)?.id
        mkdir(String(root.dropLast("/bindings".count)), 0o755)
        mkdir(root, 0o755)
        for change in try repository.diffTrees(old: oldTree, new: newTree) where change.kind == .added {
            guard let blob = change.new?.id else { continue }
            let object = try CanonicalJSON.parse(try repository.readBlob(blob, limit: Limits.maxRecordBytes))
            guard let binding = object["deviceBinding"]?.stringValue else { continue }
            let path = markerPath(binding)
            mkdir(String(path.dropLast(65)), 0o755)
            let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
            if fd >= 0 { close(fd) }
        }
        try DurableFile.write(Array((tip.hex + "\n").utf8), to: commitFile)
    }
}
