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
        /// The reference itself is refused — malformed, or ambiguous (it names more than one thing) — rather
        /// than the ledger lacking or failing to read what it names: the CLI's exit 64, not 65.
        public var isRefusedReference = false
    }

    /// One thing a reference names: its kind (a stored kind's name, `manifest-signature`, `commit` or
    /// `log`) and where it is (a path in the tip's tree, or a commit).
    public struct Match: Sendable {
        public enum Target: Sendable {
            case file(String)
            case commit(ObjectID)
        }
        public let kind: String
        public let target: Target

        /// `verdict  batches/…/verdicts/3/3f2a….json`, `commit  9c1e…`: one line of an ambiguity's list.
        public var line: String {
            switch target {
            case .file(let path): "\(kind.padded(to: 19)) \(path)"
            case .commit(let id): "\(kind.padded(to: 19)) \(id.hex)"
            }
        }
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

    /// What `ref` (``LedgerReference``) names in the ledger at `path`'s tip: exactly one thing, or an error —
    /// a reference that names several is refused with each candidate's kind and path listed.
    public static func show(_ path: String, ref: String) throws(BrowseError) -> Shown {
        let reference: LedgerReference
        do {
            reference = try LedgerReference.parse(ref)
        } catch {
            throw BrowseError(description: error.description, isRefusedReference: true)
        }
        do {
            let repository = try Repository.open(path)
            guard let tip = try repository.referenceTarget(LedgerLayout.branch) else {
                throw BrowseError(description: "\(path): the ledger has no commits")
            }
            if case .bare(let name) = reference, let bytes = try repository.blob(at: name, inCommit: tip) {
                return .file(path: name, bytes: bytes)
            }
            let matches = try self.matches(reference, at: tip, in: repository)
            guard let match = matches.first else {
                throw BrowseError(
                    description: "\(ref): nothing in the ledger by that name (\(LedgerReference.grammar))")
            }
            guard matches.count == 1 else {
                throw BrowseError(
                    description: "\(ref) is ambiguous: it names \(matches.count) things; give more digits or "
                        + "choose with KIND:HEX\n"
                        + matches.map { "  \($0.line)" }.joined(separator: "\n"),
                    isRefusedReference: true)
            }
            switch match.target {
            case .commit(let id):
                return .batch(try batch(id, in: repository))
            case .file(let file):
                guard let bytes = try repository.blob(at: file, inCommit: tip) else {
                    throw BrowseError(description: "\(file) is listed in the tip's tree but cannot be read")
                }
                return .file(path: file, bytes: bytes)
            }
        } catch let error as BrowseError {
            throw error
        } catch {
            throw BrowseError(description: "\(path): \(error)")
        }
    }

    /// Everything `reference` can name at `tip`, without reading any record.
    private static func matches(_ reference: LedgerReference, at tip: ObjectID, in repository: Repository)
        throws(GitError) -> [Match]
    {
        switch reference {
        case .logEntry(let sequence):
            return try logEntry(sequence, at: tip, in: repository).map { [$0] } ?? []
        case .commit(let revision):
            return (try? repository.resolveCommit(revision)).map { [Match(kind: "commit", target: .commit($0))] } ?? []
        case .record(let kind, let prefix):
            return try records(startingWith: prefix, at: tip, in: repository) { $0 == kind }
        case .bare(let name):
            var found: [Match] = []
            if let sequence = LedgerReference.sequence(name),
                let entry = try logEntry(sequence, at: tip, in: repository)
            {
                found.append(entry)
            }
            if let prefix = LedgerReference.hexPrefix(name) {
                // Only records named by their own content address: a receipt's name is its verdict's.
                found += try records(startingWith: prefix, at: tip, in: repository) { kind in
                    StoredRecords.kinds.contains { $0.kindName == kind && $0.isNamedByItsOwnContent }
                }
            }
            if let commit = try? repository.resolveCommit(name) {
                found.append(Match(kind: "commit", target: .commit(commit)))
            }
            return found
        }
    }

    private static func logEntry(_ sequence: Int64, at tip: ObjectID, in repository: Repository) throws(GitError)
        -> Match?
    {
        let entryPath = LedgerLayout.logEntryPath(sequence)
        guard try repository.entry(at: entryPath, inCommit: tip) != nil else { return nil }
        return Match(kind: "log", target: .file(entryPath))
    }

    /// The record and manifest-signature files whose name starts with `prefix` and whose kind `accepts`, in
    /// batch order: the batch folders are listed (format version 2 names records by batch), contents unread.
    private static func records(
        startingWith prefix: String, at tip: ObjectID, in repository: Repository, accepts: (String) -> Bool
    ) throws(GitError) -> [Match] {
        try repository.batchFiles(inCommit: tip).compactMap { file in
            switch file.meaning {
            case .record(let kind, let address) where accepts(kind.kindName) && address.hex.hasPrefix(prefix):
                Match(kind: kind.kindName, target: .file(LedgerLayout.recordPath(kind, address, batch: file.batch)))
            case .manifestSignature(let address)
            where accepts(LedgerReference.manifestSignatureKind) && address.hex.hasPrefix(prefix):
                Match(
                    kind: LedgerReference.manifestSignatureKind,
                    target: .file(LedgerLayout.manifestSignaturePath(address, batch: file.batch)))
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
