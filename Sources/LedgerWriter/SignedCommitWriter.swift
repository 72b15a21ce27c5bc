import LedgerFormat
import LedgerStore

/// The one way a ledger commit is made (STYLE.md guideline 13): build the tree → commit buffer →
/// SSHSIG over the exact buffer (namespace `git`, SHA-512) → `git_commit_create_with_signature` →
/// write the batch's pack → move the branch by compare-and-swap against the expected tip.
///
/// Deterministic: Ed25519 signatures are deterministic and the commit time comes from the batch,
/// so the same inputs, key and time produce the same commit id.
struct SignedCommitWriter {
    let repository: Repository
    let key: any CommitSigner

    /// Writes `files` on top of `parent` and moves the branch from `parent` to the new commit.
    /// - Throws: ``GitError`` — ``GitError/Code/modified`` (or `exists`/`locked`) when another writer
    ///   moved the branch first; the caller re-reads and retries.
    func commit(files: [(path: String, bytes: [UInt8])], parent: ObjectID?, message: String, time: Instant)
        throws(GitError) -> ObjectID
    {
        let timer = PhaseClock()
        var upserts: [(path: String, blob: ObjectID)] = []
        upserts.reserveCapacity(files.count)
        for file in files {
            upserts.append((file.path, try repository.writeBlob(file.bytes)))
        }
        timer.lap("blobs")
        CrashPoint.reach(.afterBlobs)
        let baseTree = try parent.map { (id: ObjectID) throws(GitError) in try repository.commit(id).tree }
        let tree = try repository.updatedTree(base: baseTree, upserts: upserts)
        timer.lap("tree")
        CrashPoint.reach(.afterTree)
        let buffer = try repository.commitBuffer(
            tree: tree, parent: parent, identity: CommitIdentity(time: time.seconds), message: message)
        let signature: SSHSignature
        do {
            signature = try SSHSignature.sign(buffer, namespace: "git", by: key)
        } catch {
            throw GitError.fail("signing the commit: \(error.description)")
        }
        let commit = try repository.createSignedCommit(buffer: buffer, signature: signature.armored)
        timer.lap("commit")
        CrashPoint.reach(.afterCommitObject)
        try repository.writeBatchPack(commit: commit, parent: parent, blobs: upserts.map(\.blob))
        timer.lap("pack")
        CrashPoint.reach(.afterPack)
        try repository.compareAndSwapReference(LedgerLayout.branch, to: commit, expected: parent)
        timer.lap("reference")
        timer.report()
        CrashPoint.reach(.afterReference)
        return commit
    }
}
