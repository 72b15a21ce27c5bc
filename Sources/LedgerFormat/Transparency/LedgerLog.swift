/// The ledger as a transparency log (docs/FORMAT.md, "Transparency"): every file a commit adds
/// or changes is one leaf, in commit order and, within a commit, in the bytewise order of the paths; each
/// commit carries the C2SP checkpoint of the log after it, signed by the log key the descriptor declares.
public enum LedgerLog {
    /// A leaf's entry: the canonical JSON `{"path":…,"sha256":…}` — the file's path and the SHA-256 of its
    /// exact bytes (a statement, not the file: records reach 256 KiB and a tile entry at most 65 535 bytes,
    /// and the path says which batch published it).
    public static func entry(path: String, sha256: ContentAddress) -> [UInt8] {
        var encoder = CanonicalEncoder(capacity: path.utf8.count + 96)
        encoder.writeMembers(["path": .string(path), "sha256": .string(sha256.hex)])
        return encoder.output
    }

    /// Whether a file is a leaf of the log: every file but the checkpoint and the witnesses' cosignatures
    /// (which are about the log, and cannot be in what they sign).
    public static func isLogged(_ path: String) -> Bool {
        path != LedgerLayout.checkpointPath && !path.hasBytePrefix(LedgerLayout.cosignaturesFolder + "/")
    }

    /// Whether a later commit may replace the file at `path` (docs/FORMAT.md, "Repository"): the signers (a
    /// rotation), the descriptor (a log handover, its `log` only), the checkpoint and a witness's cosignature
    /// (its latest). Everything else is written once. The verifier reads a replaced file as it reads an added
    /// one, and judges it by the same rules.
    public static func isReplaceable(_ path: String) -> Bool {
        path == LedgerLayout.allowedSignersPath || path == LedgerLayout.descriptorPath || !isLogged(path)
    }

    /// Whether a file a commit adds, or replaces (`replacing`), is a leaf: every logged file (``isLogged(_:)``),
    /// except a replaced descriptor. A descriptor is replaced only by a log handover, whose checkpoint — the
    /// new log's first — states exactly the old log's last size and root, so that anyone can see the new log
    /// continue the old one (docs/FORMAT.md, "Log handover"); a leaf for it would make the two heads differ.
    public static func isLeaf(_ path: String, replacing: Bool) -> Bool {
        isLogged(path) && !(replacing && path == LedgerLayout.descriptorPath)
    }

    /// The entries a commit adds to the log: one per leaf it adds or replaces (``isLeaf(_:replacing:)``;
    /// `replaced` names the files it replaces), in the bytewise order of the paths.
    public static func entries(
        of files: [(path: String, sha256: ContentAddress)], replaced: Set<String> = []
    ) -> [[UInt8]] {
        files.filter { isLeaf($0.path, replacing: replaced.contains($0.path)) }
            .sorted { $0.path.utf8Precedes($1.path) }
            .map { entry(path: $0.path, sha256: $0.sha256) }
    }

    /// The checkpoint note of the log `range` describes, signed by `signer` under the log key `key`.
    public static func checkpoint(_ range: CompactRange, key: NoteKey, signer: any CommitSigner) throws(SigningError)
        -> SignedNote
    {
        let head = TreeHead(origin: key.name, size: range.size, root: range.root)
        let signature = try signer.ed25519Signature(over: Array(head.text.utf8))
        return SignedNote(
            text: head.text, signatures: [SignedNote.Signature(name: key.name, keyID: key.keyID, payload: signature)])
    }
}
