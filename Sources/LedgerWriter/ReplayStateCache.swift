public import LedgerStore
public import LedgerVerifier

#if canImport(Glibc)
    import Glibc
#endif

/// The replay state at the tip of each ledger this process appended to: the next append on that tip is
/// judged from it instead of rebuilding it from the tip's tree (which reads every receipted verdict).
///
/// Only states this process computed while judging its own commits are kept, and one is used only when
/// the ledger's tip is still the commit it belongs to; anything else rebuilds from the tree.
final class ReplayStateCache: @unchecked Sendable {
    static let shared = ReplayStateCache()

    private var lock = pthread_mutex_t()
    private var states: [String: ReplayState] = [:]

    private init() { pthread_mutex_init(&lock, nil) }

    /// The state remembered for `gitDirectory` if it is the state at `tip`.
    func state(for gitDirectory: String, at tip: ObjectID?) -> ReplayState? {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        guard let state = states[gitDirectory], state.previous == tip else { return nil }
        return state
    }

    func remember(_ state: ReplayState, for gitDirectory: String) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        states[gitDirectory] = state
    }
}
