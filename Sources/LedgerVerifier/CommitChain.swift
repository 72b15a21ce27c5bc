import LedgerFormat
import LedgerStore

/// The first-parent chain of commits from a tip to the root, read by the verifier itself (bounded
/// work): each commit object is read only after its header says it is a commit of at most
/// ``maxCommitBytes``, so a commit with a 256 MiB message costs nothing before it is refused. A ledger's
/// history is linear, so the chain is the whole history; a merge's other parents are HistoryPolicy's to
/// report. Membership answers "does the tip descend from X" without libgit2's graph walk.
struct CommitChain {
    /// Largest commit object read (a ledger commit is a few hundred bytes plus its message).
    static let maxCommitBytes = 1 << 20

    /// Oldest first: the root, then each child.
    let ids: [ObjectID]
    private let positions: [ObjectID: Int]
    /// Where the walk stopped: a commit too large to read, with its size.
    let oversized: (id: ObjectID, size: Int)?

    init(repository: Repository, tip: ObjectID) throws(GitError) {
        var newestFirst: [ObjectID] = []
        var current: ObjectID? = tip
        var stopped: (ObjectID, Int)?
        while let id = current {
            let size = try repository.blobSize(id)
            guard size <= Self.maxCommitBytes else {
                stopped = (id, size)
                break
            }
            newestFirst.append(id)
            current = Self.firstParent(of: try repository.rawCommit(id, limit: Self.maxCommitBytes))
        }
        ids = newestFirst.reversed()
        oversized = stopped
        var positions: [ObjectID: Int] = [:]
        for (index, id) in ids.enumerated() { positions[id] = index }
        self.positions = positions
    }

    /// Whether `ancestor` is on the chain (the tip descends from it, or is it).
    func contains(_ ancestor: ObjectID) -> Bool { positions[ancestor] != nil }

    /// The commits after `start` (all of them when nil), oldest first.
    func commits(after start: ObjectID?) -> [ObjectID] {
        guard let start, let position = positions[start] else { return ids }
        return Array(ids[(position + 1)...])
    }

    /// How many commits the chain holds up to and including `commit`.
    func count(through commit: ObjectID) -> Int? { positions[commit].map { $0 + 1 } }

    /// The first `parent` header of a raw commit object.
    static func firstParent(of raw: [UInt8]) -> ObjectID? {
        for line in raw.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if line.isEmpty { return nil }  // end of headers
            if line.starts(with: Array("parent ".utf8)) {
                return ObjectID(hexString: String(decoding: line.dropFirst(7), as: UTF8.self))
            }
        }
        return nil
    }
}
