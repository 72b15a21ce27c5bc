public import LedgerFormat
public import LedgerStore
import LedgerVerifier

#if canImport(Glibc)
    import Glibc
#endif

/// A ledger opened for writing: open, append (as often as needed), close. It owns the writer lock, held
/// from ``open(_:)`` to ``close()``, and the replay state at the tip it last published — each batch is
/// judged from that state, and ``close()`` saves it to the writer's state files (`WriterStateFile`),
/// once, however many batches were appended. A writer that is killed first leaves stale state files,
/// which only cost the next one a rebuild from the tree.
///
/// Every operation validates everything first and writes nothing on failure; the branch moves only by
/// compare-and-swap, and a lost race (something moved the branch without the lock) re-reads the new tip
/// and re-plans (the chain continues).
public final class Appender {
    /// How many times an operation re-reads and retries after losing a race before giving up.
    public static let maxAttempts = 1000

    /// The ledger's path, as given to ``open(_:)``.
    public let path: String
    private let gitDirectory: String
    private let lock: WriterLock
    /// The replay state at the commit it names (`previous`): what this appender published last, else what
    /// it loaded or rebuilt when it first needed it. Judged in place and advanced in place — never copied,
    /// which would copy every map the ledger has grown, once per batch.
    private var state: ReplayState?
    /// Records of the ledger read or kept while judging and planning from ``state`` (the records each
    /// published batch stored, for the later batches that name them); begun again with a new state.
    private(set) var records = RecordCache()
    /// Whether the state files are behind ``state``.
    private var unsaved = false
    /// Pack merges written beside the next batches; waited for by ``close()`` and ``repack()``.
    private let merges = BackgroundPackMerges()
    private var closed = false

    private init(path: String, gitDirectory: String, lock: WriterLock) {
        self.path = path
        self.gitDirectory = gitDirectory
        self.lock = lock
    }

    deinit { close() }

    /// Opens the ledger at `path` for writing: refuses a repository with a work tree before anything is
    /// written (docs/DECISIONS.md "Bare repositories only"), then takes the writer lock — waiting for a live
    /// writer up to the timeout, and naming it after that — and removes what a killed writer left half
    /// written in the pack folder (`PackWriter.removeAbandoned(in:)`).
    public static func open(_ path: String) throws(AppendError) -> Appender {
        let directory = try Ledger.bareGitDirectory(path)
        let lock = try WriterLock.acquire(gitDirectory: directory)
        // Under the lock: a pack or index half written by a writer since killed is nobody's (told by its pid).
        PackWriter.removeAbandoned(in: PackFolder.path(gitDirectory: directory))
        return Appender(path: path, gitDirectory: directory, lock: lock)
    }

    /// Opens the ledger at `path`, runs `body` with the appender, and closes it whatever `body` does.
    public static func with<T>(_ path: String, _ body: (Appender) throws -> T) throws -> T {
        let appender = try open(path)
        defer { appender.close() }
        return try body(appender)
    }

    /// Saves the replay state to the writer's state files when they are behind it, and releases the lock.
    /// Does nothing the second time; an appender is not used after it.
    public func close() {
        guard !closed else { return }
        closed = true
        merges.collect(wait: true)
        if unsaved, let state, let tip = state.previous {
            WriterStateFile.save(state, at: tip, gitDirectory: gitDirectory)
        }
        lock.release()
    }

    /// Waits for the pack merge being written beside the batches (docs/DECISIONS.md, "Packs merge beside the
    /// next batches") and removes the packs it replaced; ``close()`` does as much.
    public func waitForPackMerges() {
        merges.collect(wait: true)
    }

    // MARK: - append

    /// Appends one batch as one signed commit.
    /// - Parameter idempotencyKey: the caller's identity for this batch; an append with a key one of the
    ///   last 256 batches carries is a retry and logs nothing twice. Without a key nothing is deduplicated.
    /// - Parameter logKey: signs the batch's checkpoint (default: `signingKey`); it must be the log key the
    ///   descriptor declares.
    /// - Parameter now: the moment of writing (default: the system clock). The batch is judged by `verify`'s
    ///   policies as `verify` would judge it at that moment: a batch dated (`at`) more than 300 s after it is
    ///   refused (HistoryPolicy) and nothing is written — a typo in `--at` must not brick the ledger.
    public func append(
        items: [BatchItem], signingKey: any CommitSigner, at: Instant, idempotencyKey: String? = nil,
        logKey: (any CommitSigner)? = nil, now: Instant? = nil
    ) throws(AppendError) -> Ledger.AppendResult {
        try writing { attempt in
            // Planned in a scope of its own: the tip's view (which shares the record index with the replay
            // state) is gone before the state is advanced in place.
            let (repository, tip, plan) = try { () throws in
                let timer = PhaseClock()
                let (repository, tip, view) = try openTip(signingKey: signingKey, at: at)
                timer.lap("open")
                let plan = try BatchPlanner.plan(items, state: view, at: at, idempotencyKey: idempotencyKey)
                timer.lap("plan")
                timer.report()
                return (repository, tip, plan)
            }()
            guard !plan.isEmpty else {
                return Ledger.AppendResult(commit: nil, counts: plan.counts, trailers: plan.trailers, attempts: attempt)
            }
            try repository.attachInMemoryObjects()
            let (commit, conduct) = try Ledger.judgedCommit(
                repository, signingKey, logKey: logKey ?? signingKey, files: plan.files, parent: tip,
                message: plan.commitMessage, time: at, now: now ?? Ledger.wallClock(), sources: plan.sources,
                otherwise: "batch", state: &state, records: records)
            unsaved = true
            // After the commit is published: merging packs is housekeeping, never part of the append's safety.
            let housekeeping = PhaseClock()
            merges.collect()
            var result = Ledger.AppendResult(
                commit: commit, counts: plan.counts, trailers: plan.trailers, attempts: attempt)
            result.conductFindings = conduct
            // The packs are counted only when no merge is being written, whose pack would count its objects
            // twice: an appender of one batch (the CLI's) always counts them; a long-lived one on a later batch.
            result.packHint = merges.isWriting ? nil : PackUsage.hint(gitDirectory: repository.gitDirectory)
            merges.start(gitDirectory: gitDirectory)
            housekeeping.lap("merge packs")
            housekeeping.report()
            return result
        }
    }

    // MARK: - keys rotate

    /// A signed commit that adds or removes a commit-signing key in `keys/allowed_signers`.
    /// The signing key must be allowed by the current tip; removing the last key is refused. `now` is the
    /// moment of writing (default: the system clock), as for
    /// ``append(items:signingKey:at:idempotencyKey:logKey:now:)``.
    public func rotateSigners(
        signingKey: any CommitSigner, add: [Ed25519.PublicKey], remove: [Ed25519.PublicKey],
        at: Instant, logKey: (any CommitSigner)? = nil, now: Instant? = nil
    ) throws(AppendError) -> ObjectID? {
        try writing { _ in
            let (repository, tip, view) = try openForKeyCommit(signingKey: signingKey, at: at)
            var signers = view.signers
            for key in add { signers.add(key) }
            for key in remove {
                guard signers.contains(key) else {
                    throw AppendError(
                        source: "--remove", record: OpenSSHKey.fingerprint(key), rule: "keys.notPresent",
                        reason: "the key is not an allowed signer")
                }
                signers.remove(key)
            }
            guard !signers.entries.isEmpty else {
                throw AppendError(
                    source: "--remove", rule: "keys.lastKey",
                    reason: "removing the last allowed signer would leave no one able to append")
            }
            guard signers != view.signers else { return nil }
            try repository.attachInMemoryObjects()
            var summary: [String] = add.filter { !view.signers.contains($0) }.map {
                "add \(OpenSSHKey.fingerprint($0))"
            }
            summary += remove.map { "remove \(OpenSSHKey.fingerprint($0))" }
            // Restate only the log position: a writes digest belongs to the batch that chained those writes.
            let trailers = LedgerTrailers(logSize: view.trailers.logSize, logHead: view.trailers.logHead)
            let message = "keys: \(summary.joined(separator: ", "))\n\n\(trailers.text)"
            let commit = try Ledger.judgedCommit(
                repository, signingKey, logKey: logKey ?? signingKey,
                files: [(LedgerLayout.allowedSignersPath, Array(signers.text.utf8))], parent: tip,
                message: message, time: at, now: now ?? Ledger.wallClock(), sources: [:], otherwise: "keys rotate",
                state: &state, records: records
            ).commit
            unsaved = true
            return commit
        }
    }

    // MARK: - keys rotate-log

    /// A log handover (docs/FORMAT.md, "Log handover"): one commit, signed by `signingKey` (allowed at the
    /// tip), that replaces the descriptor's `log` with `newLogKey` under `origin` and carries the new log's
    /// first checkpoint — the old log's last size and root, signed by `newLogKey`. The old log key is not
    /// needed: a vendor whose log key leaked or was lost hands the history to a new log with the keys it has.
    /// - Parameter origin: the new log's origin (default: the old origin, a `/`, and the new key's ID in hex —
    ///   a witness sees a new log, as C2SP expects of a new key).
    /// - Returns: the commit and the new log's verifier key.
    public func rotateLog(
        signingKey: any CommitSigner, newLogKey: any CommitSigner, origin: String? = nil, at: Instant,
        now: Instant? = nil
    ) throws(AppendError) -> (commit: ObjectID, log: NoteKey) {
        try writing { _ in
            let (repository, tip, view) = try openForKeyCommit(signingKey: signingKey, at: at)
            var descriptor = view.descriptor
            guard let old = descriptor.log else {
                throw AppendError(
                    source: LedgerLayout.descriptorPath, rule: "ledger.logKey",
                    reason: "the descriptor declares no log key: not a format version 2 ledger")
            }
            guard let provisional = NoteKey(name: old.name, type: NoteKey.ed25519, publicKey: newLogKey.publicKey),
                provisional.publicKey != old.publicKey
            else {
                throw AppendError(
                    source: "--log-key", record: OpenSSHKey.fingerprint(newLogKey.publicKey), rule: "logKey.same",
                    reason: "the log is already signed by this key; a handover names a new one")
            }
            let keyID = String(provisional.keyID, radix: 16)
            let name = origin ?? "\(old.name)/\(String(repeating: "0", count: 8 - keyID.count))\(keyID)"
            let key = try Ledger.noteKey(
                origin: name.hasSameBytes(as: old.name) ? "" : name, signer: newLogKey, rule: "logKey.origin",
                reason: "a new log has a new origin: a name without spaces or '+', not starting with SSHSIG, "
                    + "other than \(old.name)")
            descriptor.log = key
            try repository.attachInMemoryObjects()
            let trailers = LedgerTrailers(logSize: view.trailers.logSize, logHead: view.trailers.logHead)
            let message = "keys: log handover to \(key)\n\n\(trailers.text)"
            let commit = try Ledger.judgedCommit(
                repository, signingKey, logKey: newLogKey,
                files: [(LedgerLayout.descriptorPath, CanonicalJSON.encode(descriptor.json))], parent: tip,
                message: message, time: at, now: now ?? Ledger.wallClock(), sources: [:],
                otherwise: "keys rotate-log", state: &state, records: records
            ).commit
            unsaved = true
            return (commit, key)
        }
    }

    // MARK: - repack

    /// Repacks the ledger into one pack (see `Repository.repackAll(tip:)`), no append running meanwhile (the
    /// lock is held); returns packs replaced.
    public func repack() throws(AppendError) -> Int {
        try writing { _ in
            merges.collect(wait: true)
            let repository = try Repository.open(path)
            guard let tip = try repository.referenceTarget(LedgerLayout.branch) else {
                throw AppendError(source: path, rule: "ledger.empty", reason: "no \(LedgerLayout.branch)")
            }
            let replaced = try repository.repackAll(tip: tip)
            PackUsage.recordRepack(gitDirectory: repository.gitDirectory)
            return replaced
        }
    }

    // MARK: - Helpers

    /// Runs one write (`attempt` numbered from 1), again when it loses the compare-and-swap on the branch to
    /// something that moved it without the lock.
    private func writing<T>(_ attempt: (Int) throws -> T) throws(AppendError) -> T {
        precondition(!closed, "an appender is not used after close()")
        for number in 1...Self.maxAttempts {
            do {
                return try attempt(number)
            } catch let error as GitError where Self.isLostRace(error) {
                Self.backOff(number)
            } catch {
                throw AppendError.from(error, source: path)
            }
        }
        throw AppendError(
            source: path, rule: "append.contention",
            reason: "lost the compare-and-swap \(Self.maxAttempts) times; nothing was written")
    }

    /// ``openTip(signingKey:at:)`` for a commit of the keys (a rotation, a log handover), whose time must also
    /// keep the commit-time order (TimeWindow): it states no record time the policies would place.
    private func openForKeyCommit(signingKey: any CommitSigner, at time: Instant) throws
        -> (Repository, ObjectID, LedgerState)
    {
        let opened = try openTip(signingKey: signingKey, at: time)
        if let reason = TimeWindow.commitViolation(
            TimeWindow.Window(parentTime: opened.2.commitTime, commitTime: time.seconds))
        {
            throw AppendError(source: "--at", record: time.rfc3339, rule: TimeWindow.ruleName, reason: reason)
        }
        return opened
    }

    /// Reads the ledger's tip and checks that `signingKey` may sign the next commit; makes sure ``state`` is
    /// the replay state at the tip: its own, else the writer's state files, else rebuilt from the tree.
    private func openTip(signingKey: any CommitSigner, at time: Instant) throws -> (Repository, ObjectID, LedgerState) {
        let repository = try Repository.open(path)
        guard let tip = try repository.referenceTarget(LedgerLayout.branch) else {
            throw AppendError(source: path, rule: "ledger.empty", reason: "no \(LedgerLayout.branch): run init first")
        }
        if state?.previous != tip {
            records = RecordCache()
            if let loaded = WriterStateFile.load(at: tip, in: repository, signer: signingKey.publicKey, now: time) {
                state = loaded
                unsaved = false
            } else {
                // No state of its own: rebuilt from the tip's tree and history (the next commit's checkpoint
                // continues the log from it).
                state = try CandidateCommit.rebuiltState(
                    at: tip, in: repository, signer: signingKey.publicKey, now: time)
                unsaved = true
            }
        }
        let view = try LedgerState(repository: repository, tip: tip, index: state?.records, records: records)
        guard view.signers.contains(signingKey.publicKey) else {
            throw AppendError(
                source: path, rule: "signingKey.notAllowed",
                reason: "\(OpenSSHKey.fingerprint(signingKey.publicKey)) is not in \(LedgerLayout.allowedSignersPath)")
        }
        return (repository, tip, view)
    }

    private static func isLostRace(_ error: GitError) -> Bool {
        error.code == .modified || error.code == .exists || error.code == .locked
    }

    /// A short randomized pause so two racing writers do not retry in lockstep.
    private static func backOff(_ attempt: Int) {
        usleep(UInt32.random(in: 0...UInt32(min(attempt, 20) * 500)))
    }
}
