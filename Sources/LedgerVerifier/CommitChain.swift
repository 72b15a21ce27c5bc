import LedgerFormat
import LedgerStore

/// The first-parent chain of commits from a tip back to the root — or back to a commit verified before,
/// when the run continues from it — read by the verifier itself (bounded work): each commit object is read
/// only after its header says it is a commit of at most ``maxCommitBytes``, so a commit with a 256 MiB
/// message costs nothing before it is refused. A ledger's history is linear, so the chain is the whole
/// history; a merge's other parents are HistoryPolicy's to report. Membership answers "does the tip descend
/// from X" without libgit2's graph walk.
///
/// A walk that may stop at a verified tip reads only the commits after it: an incremental run over a
/// ledger of 20 000 commits read every commit object back to the root before (0.6 s warm, 4–13 s with the
/// packs out of the page cache, at 10^7 write entries).
struct CommitChain {
    /// Largest commit object read (a ledger commit is a few hundred bytes plus its message).
    static let maxCommitBytes = 1 << 20

    /// Oldest first: the first commit the walk read (the root, or the child of ``base``), then each child.
    private(set) var ids: [ObjectID]
    private var positions: [ObjectID: Int]
    /// The verified commit the walk stopped at (not in ``ids``), nil when it went back to the root.
    private(set) var base: ObjectID?
    /// Where the walk stopped: a commit too large to read, with its size.
    private(set) var oversized: (id: ObjectID, size: Int)?

    /// The chain back from `tip` to the root, or to the first commit of `stops` it meets.
    init(repository: Repository, tip: ObjectID, stoppingAt stops: Set<ObjectID> = []) throws(GitError) {
        let walked = try Self.walk(repository, from: tip, stoppingAt: stops)
        ids = walked.oldestFirst
        base = walked.base
        oversized = walked.oversized
        positions = Self.positions(of: ids)
    }

    /// The chain read on past ``base`` to the root (a run that cannot continue from it checks it all).
    mutating func extendToRoot(_ repository: Repository) throws(GitError) {
        guard let base else { return }
        let older = try Self.walk(repository, from: base, stoppingAt: [])
        self.base = nil
        oversized = older.oversized
        ids = older.oldestFirst + ids
        positions = Self.positions(of: ids)
    }

    /// Whether the walk went back to the root: ``ids`` is the whole history.
    var reachesRoot: Bool { base == nil && oversized == nil }

    /// The commits from `tip` back to the root, or to a commit of `stops` (the base, not included), or to a
    /// commit too large to read (not included); oldest first.
    private static func walk(_ repository: Repository, from tip: ObjectID, stoppingAt stops: Set<ObjectID>)
        throws(GitError) -> (oldestFirst: [ObjectID], base: ObjectID?, oversized: (id: ObjectID, size: Int)?)
    {
        var newestFirst: [ObjectID] = []
        var current: ObjectID? = tip
        while let id = current {
            if stops.contains(id) { return (newestFirst.reversed(), id, nil) }
            let size = try repository.blobSize(id)
            guard size <= Self.maxCommitBytes else { return (newestFirst.reversed(), nil, (id, size)) }
            newestFirst.append(id)
            current = Self.firstParent(of: try repository.rawCommit(id, limit: Self.maxCommitBytes))
        }
        return (newestFirst.reversed(), nil, nil)
    }

    private static func positions(of ids: [ObjectID]) -> [ObjectID: Int] {
        var positions: [ObjectID: Int] = [:]
        positions.reserveCapacity(ids.count)
        for (index, id) in ids.enumerated() { positions[id] = index }
        return positions
    }

    /// Whether `ancestor` is on the chain read (the tip descends from it, or is it), ``base`` included.
    func contains(_ ancestor: ObjectID) -> Bool { positions[ancestor] != nil || ancestor == base }

    /// The commits after `start` (all of them read when nil, or when `start` is ``base``), oldest first.
    func commits(after start: ObjectID?) -> [ObjectID] {
        guard let start, let position = positions[start] else { return ids }
        return Array(ids[(position + 1)...])
    }

    /// How many commits the chain holds up to and including `commit` (a chain that reaches the root).
    func count(through commit: ObjectID) -> Int? {
        guard base == nil else { return nil }
        return positions[commit].map { $0 + 1 }
    }

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
