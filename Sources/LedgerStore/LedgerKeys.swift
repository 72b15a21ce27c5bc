public import LedgerFormat

/// The keys a ledger names, read from the repository as it is (`verify` judges it): what `keys list` and
/// `git-setup` show and configure, read here rather than by the command line.
public enum LedgerKeys {
    /// Why the keys could not be read.
    public enum ReadError: Error, Sendable, CustomStringConvertible {
        /// The ledger has no tip, or its tip no `keys/allowed_signers`: not a ledger.
        case notALedger
        /// The repository, or a file in it, could not be read (git's or the format's words).
        case unreadable(String)

        public var description: String {
            switch self {
            case .notALedger: "no \(LedgerLayout.allowedSignersPath) at the tip; not a ledger"
            case .unreadable(let reason): reason
            }
        }
    }

    /// The signers the ledger at `path` allows to sign its next commit (its tip's `keys/allowed_signers`),
    /// and the log key in force from each commit that changed it, oldest first (``LogKeyHistory``).
    public static func current(_ path: String) throws(ReadError) -> (
        signers: AllowedSigners, logs: [(commit: ObjectID, key: NoteKey?)]
    ) {
        do {
            let repository = try Repository.open(path)
            guard let tip = try repository.referenceTarget(LedgerLayout.branch),
                let bytes = try repository.blob(at: LedgerLayout.allowedSignersPath, inCommit: tip)
            else { throw ReadError.notALedger }
            let signers = try AllowedSigners(text: String(decoding: bytes, as: UTF8.self))
            return (signers, try LogKeyHistory.keys(repository, endingAt: tip))
        } catch let error as ReadError {
            throw error
        } catch {
            throw .unreadable("\(error)")
        }
    }

    /// Every commit-signing key any version of `keys/allowed_signers` allowed, in the order they first
    /// appear, along the history of the repository at `path` up to its `HEAD` (else the ledger branch) — the
    /// keys a clone's `git log --show-signature` must accept — with the repository's git directory.
    public static func everySigner(_ path: String) throws(GitError) -> (
        gitDirectory: String, keys: [Ed25519.PublicKey]
    ) {
        let repository = try Repository.open(path)
        var seen: [Ed25519.PublicKey] = []
        var tip = try repository.referenceTarget("HEAD")
        if tip == nil { tip = try repository.referenceTarget(LedgerLayout.branch) }
        for version in try tip.map(repository.allowedSignersHistory) ?? [] {
            for key in version.signers.keys where !seen.contains(key) { seen.append(key) }
        }
        return (repository.gitDirectory, seen)
    }
}
