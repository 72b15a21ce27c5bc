public import LedgerFormat
public import LedgerStore

/// A verified ledger's transparency log (docs/FORMAT.md "Transparency"): every leaf entry in log order,
/// the file each one states, and every commit's checkpoint — what `publish` serves and `prove` proves from.
/// Read from verified history only (``VerifiedHistory/transparencyLog()``).
public struct LedgerLogView: Sendable {
    public struct CommitCheckpoint: Sendable {
        public let commit: ObjectID
        /// Leaves after the commit.
        public let size: Int
        /// The commit's `checkpoint` file, verbatim.
        public let note: String
    }

    public let key: NoteKey
    public let entries: [[UInt8]]
    public let paths: [String]
    public let checkpoints: [CommitCheckpoint]
    public let tiles: TileSet
    /// The witnesses' cosignature lines the ledger stores for the tip's checkpoint (`cosignatures/`).
    public var cosignatures: [SignedNote.Signature] = []
    /// Every witness's stored cosigned checkpoint at the tip (`cosignatures/<key ID>`), by key ID, whichever
    /// checkpoint it cosigns: what `witness submit` takes the witness's last cosigned size from.
    public var storedCosignatures: [UInt32: SignedNote] = [:]

    /// The tip's checkpoint note with the witnesses' cosignatures appended: what `publish` serves and
    /// `prove` attaches.
    public var cosignedTip: String? {
        guard let tip else { return nil }
        guard var note = try? SignedNote(parsing: tip.note) else { return tip.note }
        note.signatures += cosignatures
        return note.formatted
    }

    public var size: Int { entries.count }
    public var tip: CommitCheckpoint? { checkpoints.last }

    /// The leaf index of the file at `path` (a record's, an entry's, the descriptor's).
    public func index(ofPath path: String) -> Int? { paths.firstIndex(of: path) }

    /// The checkpoint a commit carries, by commit id or by the log size after it.
    public func checkpoint(commit: ObjectID) -> CommitCheckpoint? { checkpoints.first { $0.commit == commit } }
    public func checkpoint(size: Int) -> CommitCheckpoint? { checkpoints.last { $0.size == size } }

    /// The `c2sp.org/tlog-proof@v1` text proving leaf `index` in the tip's checkpoint: the leaf's entry as
    /// its `extra` line, the index, the inclusion proof, a blank line and the checkpoint with its signatures.
    public func inclusionProof(index: Int) -> String? {
        guard let checkpoint = cosignedTip, index >= 0, index < size else { return nil }
        let hashes = Merkle.inclusionProof(index: index, leaves: tiles.levels[0][...])
        return TlogProof(extra: entries[index], index: index, hashes: hashes, checkpoint: checkpoint).text
    }

    /// The consistency proof from the log at `oldSize` to the checkpoint of size `newSize` (default: the tip), in
    /// tlog-witness's `add-checkpoint` body form: `old <size>`, the proof hashes (base64), a blank line and the
    /// newer checkpoint (the tip's with its cosignatures, or the one a commit carried at `newSize`).
    /// `newCommit` names the commit whose checkpoint ends the proof, when NEW was given as a commit: a log
    /// handover leaves two checkpoints of one size (the old log's last, the new log's first), and the proof
    /// must end in the one that commit carries.
    public func consistencyProof(oldSize: Int, newSize: Int? = nil, newCommit: ObjectID? = nil) -> String? {
        let newSize = newSize ?? size
        let note =
            newCommit.flatMap { checkpoint(commit: $0)?.note }
            ?? (newSize == size ? cosignedTip : checkpoint(size: newSize)?.note)
        guard let note, oldSize >= 0, oldSize <= newSize, newSize <= size else { return nil }
        let hashes = Merkle.consistencyProof(oldSize: oldSize, leaves: tiles.levels[0][..<newSize])
        return "old \(oldSize)\n" + hashes.map { Base64.encode($0.bytes) + "\n" }.joined() + "\n" + note
    }
}

extension VerifiedHistory {
    /// The ledger's transparency log as of the verified tip: every commit's files re-read and hashed (the
    /// verifier already checked that each commit's checkpoint is the root of these leaves).
    public func transparencyLog() throws(GitError) -> LedgerLogView? {
        guard let key = descriptor?.log else { return nil }
        let repository = snapshot.repository
        var entries: [[UInt8]] = []
        var paths: [String] = []
        var checkpoints: [LedgerLogView.CommitCheckpoint] = []
        var parentTree: ObjectID?
        for id in try repository.history(from: tip) {
            let tree = try repository.commit(id).tree
            let files = try repository.loggedFiles(from: parentTree, to: tree)
            let sorted = files.sorted { $0.path.utf8Precedes($1.path) }
            paths += sorted.map(\.path)
            entries += LedgerLog.entries(of: sorted)
            if let bytes = try repository.blob(
                at: LedgerLayout.checkpointPath, inCommit: id, limit: Limits.maxRecordBytes)
            {
                checkpoints.append(.init(commit: id, size: entries.count, note: String(decoding: bytes, as: UTF8.self)))
            }
            parentTree = tree
        }
        var view = LedgerLogView(
            key: key, entries: entries, paths: paths, checkpoints: checkpoints, tiles: TileSet(entries: entries))
        let body = checkpoints.last.flatMap { try? SignedNote(parsing: $0.note).text }
        if let folder = try repository.entry(at: LedgerLayout.cosignaturesFolder, inCommit: tip), folder.kind == .tree {
            for file in try repository.treeEntries(folder.id) where file.kind == .blob {
                guard
                    let note = try? SignedNote(
                        parsing: String(
                            decoding: try repository.readBlob(file.id, limit: Limits.maxRecordBytes), as: UTF8.self))
                else { continue }
                if let keyID = UInt32(file.name, radix: 16) { view.storedCosignatures[keyID] = note }
                guard let body, note.text.hasSameBytes(as: body) else { continue }
                view.cosignatures += note.signatures
            }
        }
        return view
    }
}
