import LedgerFormat
import LedgerStore
import LedgerVerifier

#if canImport(Glibc)
    import Glibc
#endif

/// The replay state at the tip of each ledger this process appended to: the next append on that tip is
/// judged from it, without reading the writer's state files or rebuilding from the tree.
///
/// Only states this process computed while judging its own commits are kept, and one is used only when
/// the ledger's tip is still the commit it belongs to. The state files (``WriterStateFile``) are written
/// once, when the process exits (or ``flush()`` is called): a process that appends many batches pays for
/// serializing the replay state once, not per batch; a process that dies first leaves a stale file, which
/// only costs the next writer a rebuild.
final class ReplayStateCache: @unchecked Sendable {
    static let shared = ReplayStateCache()

    struct Entry {
        var state: ReplayState
        /// Whether the state files are behind this entry.
        var unsaved: Bool
    }

    private var lock = pthread_mutex_t()
    private var entries: [String: Entry] = [:]

    private init() {
        pthread_mutex_init(&lock, nil)
        atexit { ReplayStateCache.shared.flush() }
    }

    /// Whether the cache holds the state at `tip` for `gitDirectory`.
    func holds(_ gitDirectory: String, at tip: ObjectID?) -> Bool {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return entries[gitDirectory].map { $0.state.previous == tip } ?? false
    }

    /// Runs `body` on the state at `tip`, in place (nil when the cache does not hold it): the state is
    /// read, never copied out, so the cache stays its only holder and ``advance(_:from:over:)`` changes it
    /// in place instead of copying every map the ledger has grown.
    func read<T>(_ gitDirectory: String, at tip: ObjectID?, _ body: (ReplayState) throws -> T) rethrows -> T? {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        guard entries[gitDirectory]?.state.previous == tip else { return nil }
        return try body(entries[gitDirectory]!.state)
    }

    func remember(_ entry: Entry, for gitDirectory: String) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        entries[gitDirectory] = entry
    }

    /// Advances the state at `parent` over the commit `step` just published (in place); forgets the
    /// ledger's state when the cache held another.
    func advance(_ gitDirectory: String, from parent: ObjectID?, over step: CommitStep) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        guard entries[gitDirectory]?.state.previous == parent else {
            entries[gitDirectory] = nil
            return
        }
        entries[gitDirectory]!.state.apply(step)
        entries[gitDirectory]!.unsaved = true
    }

    /// Writes the state files of every ledger whose files are behind.
    func flush() {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        for (directory, entry) in entries where entry.unsaved {
            guard let tip = entry.state.previous else { continue }
            WriterStateFile.save(entry.state, at: tip, gitDirectory: directory)
            entries[directory]?.unsaved = false
        }
    }
}
