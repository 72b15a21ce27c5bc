public import LedgerFormat

extension Repository {
    /// One version of `keys/allowed_signers`: the first commit (oldest first) that holds it, and its keys.
    public struct SignersVersion: Sendable {
        public let commit: ObjectID
        public let time: Int64
        public let signers: AllowedSigners
    }

    /// Every version of `keys/allowed_signers` along the first-parent history up to `tip`, oldest first:
    /// the file is read only at commits where its blob changes. A version that does not parse is skipped
    /// (the verifier reports it; a verified history has none) — the one walk `report` (the signers and their
    /// rotations) and `git-setup` (every key ever allowed) read.
    public func allowedSignersHistory(from tip: ObjectID) throws(GitError) -> [SignersVersion] {
        var versions: [SignersVersion] = []
        var previous: ObjectID?
        for id in try history(from: tip) {
            guard let entry = try entry(at: LedgerLayout.allowedSignersPath, inCommit: id), entry.id != previous else {
                continue
            }
            previous = entry.id
            let bytes = try readBlob(entry.id, limit: Limits.maxRecordBytes)
            guard let signers = try? AllowedSigners(text: String(decoding: bytes, as: UTF8.self)) else { continue }
            versions.append(SignersVersion(commit: id, time: try commit(id).time, signers: signers))
        }
        return versions
    }
}
