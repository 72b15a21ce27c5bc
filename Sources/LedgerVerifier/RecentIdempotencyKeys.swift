internal import LedgerFormat
internal import LedgerStore

/// The idempotency keys of the last `LedgerTrailers/retryWindow` commits, oldest first: what the verifier
/// remembers to hold a key to one batch within the writer's retry window (docs/DECISIONS.md, "The retry
/// contract"). Part of the replay state; kept in `replay.state` (``ReplayMaps``) across incremental runs,
/// or read again from the last commits' messages when that file is lost.
public struct RecentIdempotencyKeys: Sendable, Equatable {
    /// One slot per commit (nil: the commit carried no key), at most `LedgerTrailers/retryWindow`.
    public private(set) var slots: [String?] = []

    public init() {}

    init(slots: [String?]) {
        self.slots = Array(slots.suffix(LedgerTrailers.retryWindow))
    }

    /// How many commits back (1: the parent) the key was last carried, nil when not in the window.
    public func distance(of key: String) -> Int? {
        slots.lastIndex(of: key).map { slots.count - $0 }
    }

    /// Remembers the key of the next commit (nil: none), forgetting the commit that leaves the window.
    public mutating func advance(_ key: String?) {
        slots.append(key)
        if slots.count > LedgerTrailers.retryWindow { slots.removeFirst(slots.count - LedgerTrailers.retryWindow) }
    }

    /// The keys of the window ending at `commit`, read from its and its ancestors' messages.
    static func read(endingAt commit: ObjectID, repository: Repository) throws(GitError) -> RecentIdempotencyKeys {
        var newestFirst: [String?] = []
        var current: ObjectID? = commit
        while let id = current, newestFirst.count < LedgerTrailers.retryWindow {
            let info = try repository.commit(id)
            newestFirst.append(LedgerTrailers(message: info.message)?.idempotencyKey)
            current = info.parents.first
        }
        return RecentIdempotencyKeys(slots: newestFirst.reversed())
    }
}
