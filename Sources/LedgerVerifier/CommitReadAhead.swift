import Dispatch
import LedgerFormat
import LedgerStore

#if canImport(Glibc)
    import Glibc
#endif

/// Reads commits ahead of the policies: while commit N is judged, a thread of its own, with its own
/// repository handle (libgit2 forbids sharing one across threads), reads commit N+1 — the tree diff, the
/// blobs, decoding, hashing and the commit's signature (``CommitLoader/read(_:)``), none of which depends on
/// the commits before it.
///
/// At most `depth` commits wait read and unjudged, so memory stays a few commits' files whatever the
/// ledger's length. Commits come out in the order given; a git error ends the reading and is thrown by
/// the ``next()`` that reaches it. ``stop()`` (also on deinit) ends the thread and waits for it: nothing
/// touches the repository after the verifier returns.
final class CommitReadAhead: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var ready: [Result<CommitLoader.Read, GitError>] = []
    private var stopped = false
    private var running = true
    private var waitingForSlot = false
    private let depth: Int

    /// Starts reading `ids` from the repository at `path` (opened again, for the reading thread), checking
    /// record signatures ahead from `descriptor`, the one in force before the first (``SignatureForesight``).
    init(path: String, ids: [ObjectID], descriptor: LedgerDescriptor?, depth: Int = 2) {
        self.depth = depth
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
        DispatchQueue(label: "onym-ledger.read-ahead").async { [self] in
            self.run(path: path, ids: ids, descriptor: descriptor)
        }
    }

    deinit {
        stop()
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    /// The next commit's reading, in order; waits for it when the thread is behind.
    func next() throws(GitError) -> CommitLoader.Read {
        pthread_mutex_lock(&mutex)
        while ready.isEmpty && running { pthread_cond_wait(&changed, &mutex) }
        guard !ready.isEmpty else {
            pthread_mutex_unlock(&mutex)
            throw GitError.fail("read past the last commit")
        }
        let result = ready.removeFirst()
        // A slot is free: the reader no longer waits for one (it has yet to wake and see it).
        waitingForSlot = false
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
        return try result.get()
    }

    /// Ends the reading thread and waits until it has let go of its repository.
    func stop() {
        pthread_mutex_lock(&mutex)
        stopped = true
        pthread_cond_broadcast(&changed)
        while running { pthread_cond_wait(&changed, &mutex) }
        pthread_mutex_unlock(&mutex)
    }

    private func run(path: String, ids: [ObjectID], descriptor: LedgerDescriptor?) {
        // Its own clock: these phases run beside the judging thread's, not inside them.
        let clock = PhaseClock()
        defer {
            clock.report(prefix: "read ahead: ")
            pthread_mutex_lock(&mutex)
            running = false
            pthread_cond_broadcast(&changed)
            pthread_mutex_unlock(&mutex)
        }
        let loader: CommitLoader
        do {
            // This thread reads every object of the commits it loads: its packs keep their offsets.
            loader = CommitLoader(repository: try Repository.openForReading(path, keepingOffsets: true), clock: clock)
        } catch {
            hand(.failure(error))
            return
        }
        let foresight = SignatureForesight(descriptor: descriptor)
        for id in ids {
            let result: Result<CommitLoader.Read, GitError>
            do throws(GitError) { result = .success(try loader.read(id)) } catch { result = .failure(error) }
            if case .success(let read) = result {
                foresight.learn(read.files)
                // The judging thread is behind (every slot is taken): this thread would only wait, so it
                // checks the commit's signatures meanwhile. Else it hands the commit over as it is, and
                // the judging thread checks them: the work goes to whichever thread has time.
                if isFull() {
                    foresight.checkAhead(read.files, stopping: { [self] in isStopped() })
                    clock.lap("load: signatures ahead (parallel)")
                }
            }
            let handed = hand(result)
            clock.lap("wait for a free slot")
            guard handed, case .success = result else { return }
        }
    }

    /// Whether `depth` readings wait for the judging thread (and the reading goes on).
    private func isFull() -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return ready.count >= depth && !stopped
    }

    private func isStopped() -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return stopped
    }

    /// Whether the reading thread has nothing to do until a reading is taken: it waits for a free slot, or
    /// it has read every commit (for tests that take a commit only once the reader is held up).
    var readerIsIdle: Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return waitingForSlot || !running
    }

    /// Queues one reading, waiting while `depth` are queued; false once stopped.
    @discardableResult
    private func hand(_ result: Result<CommitLoader.Read, GitError>) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while ready.count >= depth && !stopped {
            waitingForSlot = true
            pthread_cond_wait(&changed, &mutex)
        }
        waitingForSlot = false
        guard !stopped else { return false }
        ready.append(result)
        pthread_cond_broadcast(&changed)
        return true
    }
}
