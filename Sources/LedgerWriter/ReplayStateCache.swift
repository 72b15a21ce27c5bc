public import LedgerStore
public import LedgerVerifier

#if canImport(Glibc)
    import Glibc
#endif

/// The replay state at the tip of each ledger this process appended to: the next append on that tip is
/// judged from it, without reading the writer's state files or rebuilding from the tree.
///
/// Only states this process computed while judging its own commits are kept, and one is used only when
/// the ledger's tip is still the commit it belongs to.
final class ReplayStateCache: @unchecked Sendable {
    static let shared = ReplayStateCache()

    struct Entry {
        let state: ReplayState
        /// The commit whose writer replay file holds this state's replay part (``WriterStateFile``).
        let replayFrom: ObjectID
    }

    private var lock = pthread_mutex_t()
    private var entries: [String: Entry] = [:]

    private init() { pthread_mutex_init(&lock, nil) }

    /// The entry remembered for `gitDirectory` if its state is the state at `tip`.
    func entry(for gitDirectory: String, at tip: ObjectID?) -> Entry? {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        guard let entry = entries[gitDirectory], entry.state.previous == tip else { return nil }
        return entry
    }

    func remember(_ entry: Entry, for gitDirectory: String) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        entries[gitDirectory] = entry
    }
}
