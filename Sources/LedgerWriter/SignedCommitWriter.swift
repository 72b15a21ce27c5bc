import LedgerFormat
import LedgerStore

/// The one way a ledger commit is made: build the tree → commit buffer →
/// SSHSIG over the exact buffer (namespace `git`, SHA-512) → `git_commit_create_with_signature`, all in
/// memory (``prepare``); then, once the policies accepted it, write the batch's pack → move the branch by
/// compare-and-swap against the expected tip (``publish``).
///
/// Deterministic: Ed25519 signatures are deterministic and the commit time comes from the batch,
/// so the same inputs, key and time produce the same commit id.
struct SignedCommitWriter {
    let repository: Repository
    let key: any CommitSigner

    /// A commit built in memory (its objects in the repository's in-memory backend), not yet published.
    struct Prepared {
        let id: ObjectID
        let parent: ObjectID?
        let blobs: [ObjectID]
    }

    /// Builds the signed commit of `files` on top of `parent` in memory: blobs, tree, commit buffer,
    /// SSHSIG. Nothing is on disk yet and the branch has not moved.
    func prepare(files: [(path: String, bytes: [UInt8])], parent: ObjectID?, message: String, time: Instant)
        throws(GitError) -> Prepared
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
        timer.report()
        CrashPoint.reach(.afterCommitObject)
        return Prepared(id: commit, parent: parent, blobs: upserts.map(\.blob))
    }

    /// Writes the prepared commit's pack and moves the branch from its parent to it.
    /// - Throws: ``GitError`` — ``GitError/Code/modified`` (or `exists`/`locked`) when another writer
    ///   moved the branch first; the caller re-reads and retries.
    func publish(_ prepared: Prepared) throws(GitError) {
        let timer = PhaseClock()
        try repository.writeBatchPack(commit: prepared.id, parent: prepared.parent, blobs: prepared.blobs)
        timer.lap("pack")
        CrashPoint.reach(.afterPack)
        try repository.compareAndSwapReference(LedgerLayout.branch, to: prepared.id, expected: prepared.parent)
        timer.lap("reference")
        timer.report()
        CrashPoint.reach(.afterReference)
    }
}
