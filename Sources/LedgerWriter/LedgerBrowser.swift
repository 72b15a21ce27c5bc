public import LedgerFormat

/// Read-only browsing of a ledger's batches, records and write entries (`log`, `show`).
/// Nothing here verifies: it shows what the repository holds (`verify` judges it).
public enum LedgerBrowser {
    public struct Batch: Sendable {
        public let commit: ObjectID
        public let time: Int64
        public let subject: String
        public let trailers: LedgerTrailers?
        /// The SSHSIG key's fingerprint, or nil for an unsigned commit.
        public let signer: String?
        public let files: [String]
    }

    public enum Shown: Sendable {
        case batch(Batch)
        case file(path: String, bytes: [UInt8])
    }

    public struct BrowseError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Every batch, newest first.
    public static func batches(_ path: String) throws(BrowseError) -> [Batch] {
        do {
            let repository = try Repository.open(path)
            guard let tip = try repository.referenceTarget(LedgerLayout.branch) else { return [] }
            return try repository.history(from: tip).reversed().map { (id: ObjectID) throws(GitError) in
                try batch(id, in: repository)
            }
        } catch {
            throw BrowseError(description: "\(path): \(error)")
        }
    }

    /// `ref`: a commit id or prefix; a record's 64-hex content address; `log:N` (or `N`) for write
    /// entry N; or a path in the tip's tree.
    public static func show(_ path: String, ref: String) throws(BrowseError) -> Shown {
        do {
            let repository = try Repository.open(path)
            guard let tip = try repository.referenceTarget(LedgerLayout.branch) else {
                throw BrowseError(description: "\(path): the ledger has no commits")
            }
            var sequenceText = ref
            if sequenceText.hasPrefix("log:") { sequenceText = String(sequenceText.dropFirst(4)) }
            if let sequence = Int64(sequenceText), sequence >= 1, sequence < 10_000_000_000_000_000 {
                let entryPath = LedgerLayout.logEntryPath(sequence)
                guard let bytes = try repository.blob(at: entryPath, inCommit: tip) else {
                    throw BrowseError(description: "write-log entry \(sequence) is not in the ledger")
                }
                return .file(path: entryPath, bytes: bytes)
            }
            if let address = ContentAddress(hex: ref) {
                for kind in LedgerLayout.StoredKind.allCases {
                    let recordPath = LedgerLayout.recordPath(kind, address)
                    if let bytes = try repository.blob(at: recordPath, inCommit: tip) {
                        return .file(path: recordPath, bytes: bytes)
                    }
                }
            }
            if let bytes = try repository.blob(at: ref, inCommit: tip) {
                return .file(path: ref, bytes: bytes)
            }
            if let commit = try? repository.resolveCommit(ref) {
                return .batch(try batch(commit, in: repository))
            }
            throw BrowseError(description: "\(ref): no commit, record, write entry or path by that name")
        } catch let error as BrowseError {
            throw error
        } catch {
            throw BrowseError(description: "\(path): \(error)")
        }
    }

    private static func batch(_ id: ObjectID, in repository: Repository) throws(GitError) -> Batch {
        let commit = try repository.commit(id)
        let signer: String?
        if let extracted = try repository.extractSignature(id),
            let signature = try? SSHSignature.parse(armored: extracted.signature)
        {
            signer = OpenSSHKey.fingerprint(signature.publicKey)
        } else {
            signer = nil
        }
        let files = try repository.diffTrees(
            old: try commit.parents.first.map { (parent: ObjectID) throws(GitError) in
                try repository.commit(parent).tree
            }, new: commit.tree
        ).map(\.path)
        return Batch(
            commit: id, time: commit.time,
            subject: String(commit.message.split(separator: "\n", maxSplits: 1).first ?? ""),
            trailers: LedgerTrailers(message: commit.message), signer: signer, files: files)
    }
}
