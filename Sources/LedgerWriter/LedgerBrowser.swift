public import LedgerFormat
public import LedgerStore

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

        /// The `log --json` / `show --json` shape: {commit, time, subject, files, signer[, logSize, logHead]}.
        public var json: JSONObject {
            var object = JSONObject([
                ("commit", .string(commit.hex)), ("time", .string(Instant(seconds: time).rfc3339)),
                ("subject", .string(subject)), ("files", .array(files.map { .string($0) })),
            ])
            object.set("signer", signer.map { .string($0) } ?? .null)
            if let trailers {
                object.set("logSize", .integer(trailers.logSize))
                object.set("logHead", .string(trailers.logHead))
            }
            return object
        }
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

    /// `ref`: a commit id or prefix; a record's 64-hex content address or a unique prefix of at least 8
    /// hex digits (as gate and verify print them); `log:N` (or `N`) for write entry N; or a path in the
    /// tip's tree.
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
            if ContentAddress(hex: ref) != nil,
                let recordPath = try recordPaths(startingWith: ref, at: tip, in: repository).first,
                let bytes = try repository.blob(at: recordPath, inCommit: tip)
            {
                return .file(path: recordPath, bytes: bytes)
            }
            if let bytes = try repository.blob(at: ref, inCommit: tip) {
                return .file(path: ref, bytes: bytes)
            }
            let records = try recordPaths(startingWith: ref, at: tip, in: repository)
            let commit = try? repository.resolveCommit(ref)
            if records.count + (commit == nil ? 0 : 1) > 1 {
                let names = records + (commit.map { ["commit \($0.hex)"] } ?? [])
                throw BrowseError(
                    description:
                        "\(ref) is ambiguous: \(names.count) matches (\(names.prefix(5).joined(separator: ", "))); give more digits"
                )
            }
            if let recordPath = records.first, let bytes = try repository.blob(at: recordPath, inCommit: tip) {
                return .file(path: recordPath, bytes: bytes)
            }
            if let commit {
                return .batch(try batch(commit, in: repository))
            }
            throw BrowseError(description: "\(ref): no commit, record, write entry or path by that name")
        } catch let error as BrowseError {
            throw error
        } catch {
            throw BrowseError(description: "\(path): \(error)")
        }
    }

    /// The record paths whose content address starts with `prefix` (8–64 lowercase hex digits), in batch
    /// order: the batch folders are listed (format version 2 names records by batch), contents unread.
    private static func recordPaths(startingWith prefix: String, at tip: ObjectID, in repository: Repository)
        throws(GitError) -> [String]
    {
        let hex = Set("0123456789abcdef")
        guard (8...64).contains(prefix.count), prefix.allSatisfy(hex.contains) else { return [] }
        return try repository.batchFiles(inCommit: tip).compactMap { file in
            switch file.meaning {
            case .record(let kind, let address) where address.hex.hasPrefix(prefix):
                LedgerLayout.recordPath(kind, address, batch: file.batch)
            default: nil
            }
        }
    }

    private static func batch(_ id: ObjectID, in repository: Repository) throws(GitError) -> Batch {
        let commit = try repository.commit(id)
        let signer: String?
        if case .signed(let text, _) = CommitSignatureSplit.split(try repository.rawCommit(id)),
            let signature = try? SSHSignature.parse(armored: text)
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
