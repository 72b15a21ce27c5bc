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
        let state: ReplayState
        /// Whether the state files are behind this entry.
        var unsaved: Bool
    }

    private var lock = pthread_mutex_t()
    private var entries: [String: Entry] = [:]

    private init() {
        pthread_mutex_init(&lock, nil)
        atexit { ReplayStateCache.shared.flush() }
    }

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

    /// Writes the state files of every ledger whose files are behind.
    func flush() {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        for (directory, entry) in entries where entry.unsaved {
            guard let tip = entry.state.previous else { continue }
            WriterStateFile.save(entry.state, at: tip, gitDirectory: directory)
            entries[directory] = Entry(state: entry.state, unsaved: false)
        }
    }
}
