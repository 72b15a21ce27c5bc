public import LedgerFormat
public import LedgerVerifier
public import LedgerStore

#if canImport(Glibc)
    import Glibc
#endif

/// The writer's front end: create a ledger, append batches, rotate commit-signing keys.
///
/// Every operation validates everything first and writes nothing on failure; the branch moves only
/// by compare-and-swap, and a lost race re-reads the new tip and re-plans (the chain continues).
public enum Ledger {
    /// How many times an append re-reads and retries after losing a race before giving up.
    public static let maxAttempts = 1000

    public struct AppendResult: Sendable {
        /// The new commit, or nil when every record was already present (nothing written).
        public let commit: ObjectID?
        public let counts: BatchPlan.Counts
        public let trailers: LedgerTrailers
        /// 1 unless another writer won a race.
        public let attempts: Int
        /// Conduct findings the policies made about this batch's writes: logged all the same (the backend
        /// made those calls), reported as `verify` will report them.
        public var conductFindings: [PolicyFailure] = []
        /// A suggestion to run `repack` (``PackUsage``), when the packs have grown enough.
        public var packHint: String?

        /// The `append --json` shape: {commit, counts, logSize, logHead, attempts, conductFindings[, hint]}.
        public var json: JSONObject {
            var object = JSONObject([
                (
                    "counts",
                    .object(
                        JSONObject([
                            ("profiles", .integer(Int64(counts.profiles))),
                            ("manifests", .integer(Int64(counts.manifests))),
                            ("mandates", .integer(Int64(counts.mandates))),
                            ("verdicts", .integer(Int64(counts.verdicts))),
                            ("receipts", .integer(Int64(counts.receipts))),
                            ("entries", .integer(Int64(counts.entries))),
                            ("revocationRecords", .integer(Int64(counts.revocationRecords))),
                            ("otherRecords", .integer(Int64(counts.otherRecords))),
                            ("cosignatures", .integer(Int64(counts.cosignatures))),
                            ("alreadyPresent", .integer(Int64(counts.alreadyPresent))),
                        ]))
                ),
                ("logSize", .integer(trailers.logSize)), ("logHead", .string(trailers.logHead)),
                ("attempts", .integer(Int64(attempts))),
            ])
            object.set("commit", commit.map { .string($0.hex) } ?? .null)
            object.set("conductFindings", .array(conductFindings.map { .object($0.json) }))
            if let packHint { object.set("hint", .string(packHint)) }
            return object
        }
    }

    // MARK: - init

    /// Creates a bare ledger repository at `path` with its descriptor, the signing key's public half
    /// as the only allowed signer, an optional profile object, and a first signed commit.
    ///
    /// Resumable: a directory that is an onym-ledger repository without a first commit (an init
    /// that was killed) is completed; anything else that exists is refused.
    /// - Parameters:
    ///   - logKey: signs the checkpoints of the ledger's transparency log (default: `signingKey`); the
    ///     descriptor declares it as `log`, under the origin `origin` (default: the ledger id).
    ///   - now: the moment of writing (default: the system clock): the commit is judged as `verify` would
    ///     judge it then, so a batch dated more than 300 s after it is refused (HistoryPolicy).
    public static func initialize(
        path: String, descriptor: LedgerDescriptor, signingKey: any CommitSigner, at: Instant,
        profile: EnforcementProfile? = nil, logKey: (any CommitSigner)? = nil, origin: String? = nil,
        now: Instant? = nil
    ) throws(AppendError) -> ObjectID {
        let logSigner = logKey ?? signingKey
        var descriptor = descriptor
        if descriptor.log == nil {
            descriptor.log = try Self.noteKey(
                origin: origin ?? descriptor.ledgerId, signer: logSigner, rule: "init.origin",
                reason: "a log origin is a name without spaces or '+' that does not start with SSHSIG "
                    + "(give --origin, e.g. ledger.example.com/onym)")
        }
        let repository: Repository
        do {
            if let existing = try? Repository.open(path) {
                guard try existing.referenceTarget(LedgerLayout.branch) == nil else {
                    throw AppendError(source: path, rule: "init.exists", reason: "a ledger already exists here")
                }
                repository = existing
            } else {
                if access(path, F_OK) == 0, !isEmptyDirectory(path) {
                    throw AppendError(
                        source: path, rule: "init.exists",
                        reason: "the path exists and is not an empty directory")
                }
                repository = try Repository.initBare(path)
            }
            try repository.attachInMemoryObjects()
            var files: [(path: String, bytes: [UInt8])] = []
            if let profile {
                descriptor.profile = profile.ref
                files.append((LedgerLayout.recordPath(of: profile, batch: 1), profile.storedBytes))
            }
            files.append((LedgerLayout.descriptorPath, CanonicalJSON.encode(descriptor.json)))
            files.append(
                (LedgerLayout.allowedSignersPath, Array(AllowedSigners(keys: [signingKey.publicKey]).text.utf8)))
            let message = "init: ledger \(descriptor.ledgerId)\n\n\(LedgerTrailers.empty.text)"
            return try judgedCommit(
                repository, signingKey, logKey: logSigner, files: files, parent: nil, message: message,
                time: at, now: now ?? wallClock(), sources: [:], otherwise: path
            ).commit
        } catch let error as AppendError {
            throw error
        } catch {
            throw AppendError(source: path, rule: "git", reason: "\(error)")
        }
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
    public static func append(
        path: String, items: [BatchItem], signingKey: any CommitSigner, at: Instant, idempotencyKey: String? = nil,
        logKey: (any CommitSigner)? = nil, now: Instant? = nil
    ) throws(AppendError) -> AppendResult {
        try writing(path) { attempt in
            // Planned in a scope of its own: the tip's view (which shares the record index with the replay
            // state) is gone before the state is advanced in place.
            let (repository, tip, plan) = try { () throws in
                let (repository, tip, state) = try openForWriting(path, signingKey: signingKey, at: at)
                let timer = PhaseClock()
                let plan = try BatchPlanner.plan(items, state: state, at: at, idempotencyKey: idempotencyKey)
                timer.lap("plan")
                timer.report()
                return (repository, tip, plan)
            }()
            guard !plan.isEmpty else {
                return AppendResult(commit: nil, counts: plan.counts, trailers: plan.trailers, attempts: attempt)
            }
            try repository.attachInMemoryObjects()
            let (commit, conduct) = try judgedCommit(
                repository, signingKey, logKey: logKey ?? signingKey, files: plan.files, parent: tip,
                message: plan.commitMessage, time: at, now: now ?? wallClock(), sources: plan.sources,
                otherwise: "batch")
            // After the commit is published: merging packs is housekeeping, never part of the append's safety.
            _ = try? repository.consolidatePacks()
            var result = AppendResult(commit: commit, counts: plan.counts, trailers: plan.trailers, attempts: attempt)
            result.conductFindings = conduct
            result.packHint = PackUsage.hint(gitDirectory: repository.gitDirectory)
            return result
        }
    }

    // MARK: - keys rotate

    /// A signed commit that adds or removes a commit-signing key in `keys/allowed_signers`.
    /// The signing key must be allowed by the current tip; removing the last key is refused. `now` is the
    /// moment of writing (default: the system clock), as for ``append(path:items:signingKey:at:idempotencyKey:logKey:now:)``.
    public static func rotateSigners(
        path: String, signingKey: any CommitSigner, add: [Ed25519.PublicKey], remove: [Ed25519.PublicKey],
        at: Instant, logKey: (any CommitSigner)? = nil, now: Instant? = nil
    ) throws(AppendError) -> ObjectID? {
        try writing(path) { _ in
            let (repository, tip, state) = try openForKeyCommit(path, signingKey: signingKey, at: at)
            var signers = state.signers
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
            guard signers != state.signers else { return nil }
            try repository.attachInMemoryObjects()
            var summary: [String] = add.filter { !state.signers.contains($0) }.map {
                "add \(OpenSSHKey.fingerprint($0))"
            }
            summary += remove.map { "remove \(OpenSSHKey.fingerprint($0))" }
            // Restate only the log position: a writes digest belongs to the batch that chained those writes.
            let trailers = LedgerTrailers(logSize: state.trailers.logSize, logHead: state.trailers.logHead)
            let message = "keys: \(summary.joined(separator: ", "))\n\n\(trailers.text)"
            return try judgedCommit(
                repository, signingKey, logKey: logKey ?? signingKey,
                files: [(LedgerLayout.allowedSignersPath, Array(signers.text.utf8))], parent: tip,
                message: message, time: at, now: now ?? wallClock(), sources: [:], otherwise: "keys rotate"
            ).commit
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
    public static func rotateLog(
        path: String, signingKey: any CommitSigner, newLogKey: any CommitSigner, origin: String? = nil, at: Instant,
        now: Instant? = nil
    ) throws(AppendError) -> (commit: ObjectID, log: NoteKey) {
        try writing(path) { _ in
            let (repository, tip, state) = try openForKeyCommit(path, signingKey: signingKey, at: at)
            var descriptor = state.descriptor
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
            let key = try Self.noteKey(
                origin: name == old.name ? "" : name, signer: newLogKey, rule: "logKey.origin",
                reason: "a new log has a new origin: a name without spaces or '+', not starting with SSHSIG, "
                    + "other than \(old.name)")
            descriptor.log = key
            try repository.attachInMemoryObjects()
            let trailers = LedgerTrailers(logSize: state.trailers.logSize, logHead: state.trailers.logHead)
            let message = "keys: log handover to \(key)\n\n\(trailers.text)"
            let commit = try judgedCommit(
                repository, signingKey, logKey: newLogKey,
                files: [(LedgerLayout.descriptorPath, CanonicalJSON.encode(descriptor.json))], parent: tip,
                message: message, time: at, now: now ?? wallClock(), sources: [:], otherwise: "keys rotate-log"
            ).commit
            return (commit, key)
        }
    }

    /// Runs one write (`attempt` numbered from 1) under the writer lock, again when it loses the
    /// compare-and-swap on the branch to something that moved it without the lock.
    private static func writing<T>(_ path: String, _ attempt: (Int) throws -> T) throws(AppendError) -> T {
        try WriterLock.holding(gitDirectory: try gitDirectory(path)) { () throws(AppendError) -> T in
            for number in 1...maxAttempts {
                do {
                    return try attempt(number)
                } catch let error as GitError where isLostRace(error) {
                    backOff(number)
                } catch {
                    throw AppendError.from(error, source: path)
                }
            }
            throw AppendError(
                source: path, rule: "append.contention",
                reason: "lost the compare-and-swap \(maxAttempts) times; nothing was written")
        }
    }

    // MARK: - Helpers

    /// The system clock, whole seconds: the moment of writing when the caller gives none.
    static func wallClock() -> Instant { Instant(seconds: Int64(Glibc.time(nil))) }

    /// Builds the commit in memory, has the verifier's policies judge it against its parent
    /// (``CandidateCommit``), and publishes it only when nothing refuses it: one rulebook for `append`
    /// and `verify`. Returns the commit and the conduct findings about its writes.
    ///
    /// The replay state at `parent` is the one this process keeps (``ReplayStateCache``; `openForWriting`
    /// put it there): judged in place and, once the commit is published, advanced in place — never copied,
    /// which would copy every map the ledger has grown, once per batch.
    private static func judgedCommit(
        _ repository: Repository, _ signer: any CommitSigner, logKey: any CommitSigner,
        files: [(path: String, bytes: [UInt8])], parent: ObjectID?, message: String,
        time: Instant, now: Instant, sources: [String: String], otherwise fallback: String
    ) throws -> (commit: ObjectID, conduct: [PolicyFailure]) {
        let directory = repository.gitDirectory
        let cache = ReplayStateCache.shared
        if parent == nil {
            cache.remember(
                .init(state: ReplayState(trustRoot: TrustRoot(keys: [signer.publicKey]), now: time), unsaved: false),
                for: directory)
        }
        let known = cache.read(directory, at: parent) { (descriptor: $0.descriptor, log: $0.log) }
        let descriptor = try descriptor(of: files) ?? known?.descriptor
        // Files the parent already holds are replaced (a rotated signers file, a handed-over descriptor).
        let replaced: Set<String> =
            parent == nil
            ? [] : Set(files.map(\.path)).intersection([LedgerLayout.allowedSignersPath, LedgerLayout.descriptorPath])
        let files =
            files + [
                try checkpointFile(
                    for: files, replacing: replaced, after: known?.log, descriptor: descriptor, logKey: logKey)
            ]
        let writer = SignedCommitWriter(repository: repository, key: signer)
        let prepared = try writer.prepare(files: files, parent: parent, message: message, time: time)
        let clock = PhaseClock()
        func judge(_ state: ReplayState?) throws -> CandidateCommit.Judgement {
            try CandidateCommit.judge(
                prepared.id, parent: parent, in: repository, signer: signer.publicKey, now: now, known: state)
        }
        let judgement = try cache.read(directory, at: parent, judge) ?? judge(nil)
        clock.lap("judge")
        let refusals = judgement.refusals
        guard refusals.isEmpty else {
            throw AppendError(refusing: refusals, sources: sources, otherwise: fallback)
        }
        CrashPoint.reach(.afterValidation)
        try CrashPoint.fault(.afterValidation)
        try writer.publish(prepared)
        // The state files are written when the process exits (ReplayStateCache).
        cache.advance(directory, from: parent, over: judgement.step)
        clock.report()
        return (prepared.id, judgement.acceptedConduct)
    }

    /// The descriptor among a root commit's files.
    private static func descriptor(of files: [(path: String, bytes: [UInt8])]) throws -> LedgerDescriptor? {
        guard let bytes = files.first(where: { $0.path == LedgerLayout.descriptorPath })?.bytes else { return nil }
        return try LedgerDescriptor(json: try CanonicalJSON.parse(bytes))
    }

    /// The `checkpoint` file of the commit that adds `files` on top of the log `state` holds: the log's
    /// C2SP checkpoint after them, signed by `logKey`, which must be the key the descriptor declares.
    private static func checkpointFile(
        for files: [(path: String, bytes: [UInt8])], replacing replaced: Set<String>, after log: CompactRange?,
        descriptor: LedgerDescriptor?, logKey: any CommitSigner
    ) throws -> (path: String, bytes: [UInt8]) {
        guard let declared = descriptor?.log else {
            throw AppendError(
                source: LedgerLayout.descriptorPath, rule: "ledger.logKey",
                reason: "the descriptor declares no log key: not a format version 2 ledger")
        }
        guard declared.publicKey == logKey.publicKey else {
            throw AppendError(
                source: "--log-key", record: OpenSSHKey.fingerprint(logKey.publicKey), rule: "logKey.notDeclared",
                reason: "the ledger's checkpoints are signed by the log key \(declared); give it with --log-key")
        }
        var log = log ?? CompactRange()
        for entry in LedgerLog.entries(of: files.map { ($0.path, SHA256.hash($0.bytes)) }, replaced: replaced) {
            log.append(Merkle.leafHash(entry))
        }
        do {
            let note = try LedgerLog.checkpoint(log, key: declared, signer: logKey)
            return (LedgerLayout.checkpointPath, Array(note.formatted.utf8))
        } catch {
            throw AppendError(
                source: "--log-key", record: OpenSSHKey.fingerprint(logKey.publicKey), rule: "logKey.signing",
                reason: "signing the checkpoint: \(error.description)")
        }
    }

    /// The C2SP verifier key `signer` signs a log's checkpoints with under `origin`, or the refusal (`--origin`,
    /// `rule`, `reason`) when the name cannot be an origin (an empty name never can).
    private static func noteKey(origin: String, signer: any CommitSigner, rule: String, reason: String)
        throws(AppendError) -> NoteKey
    {
        guard LedgerDescriptor.isUsableOrigin(origin),
            let key = NoteKey(name: origin, type: NoteKey.ed25519, publicKey: signer.publicKey)
        else { throw AppendError(source: "--origin", record: origin, rule: rule, reason: reason) }
        return key
    }

    /// ``openForWriting(_:signingKey:at:)`` for a commit of the keys (a rotation, a log handover), whose time
    /// must also keep the commit-time order (TimeWindow): it states no record time the policies would place.
    private static func openForKeyCommit(_ path: String, signingKey: any CommitSigner, at time: Instant) throws
        -> (Repository, ObjectID, LedgerState)
    {
        let opened = try openForWriting(path, signingKey: signingKey, at: time)
        if let reason = TimeWindow.commitViolation(
            TimeWindow.Window(parentTime: opened.2.commitTime, commitTime: time.seconds))
        {
            throw AppendError(source: "--at", record: time.rfc3339, rule: TimeWindow.ruleName, reason: reason)
        }
        return opened
    }

    /// Opens the ledger at its tip and checks that `signingKey` may sign the next commit; makes sure this
    /// process holds the replay state at the tip (``ReplayStateCache``): its own, else the writer's state
    /// files, else rebuilt from the tree.
    private static func openForWriting(_ path: String, signingKey: any CommitSigner, at time: Instant) throws
        -> (Repository, ObjectID, LedgerState)
    {
        let repository = try Repository.open(path)
        guard let tip = try repository.referenceTarget(LedgerLayout.branch) else {
            throw AppendError(source: path, rule: "ledger.empty", reason: "no \(LedgerLayout.branch): run init first")
        }
        let directory = repository.gitDirectory
        let cache = ReplayStateCache.shared
        if !cache.holds(directory, at: tip) {
            if let loaded = WriterStateFile.load(at: tip, in: repository, signer: signingKey.publicKey, now: time) {
                cache.remember(.init(state: loaded, unsaved: false), for: directory)
            } else {
                // No state of its own: rebuilt from the tip's tree and history (the next commit's checkpoint
                // continues the log from it).
                let rebuilt = try CandidateCommit.rebuiltState(
                    at: tip, in: repository, signer: signingKey.publicKey, now: time)
                cache.remember(.init(state: rebuilt, unsaved: true), for: directory)
            }
        }
        let index = cache.read(directory, at: tip) { $0.records }
        let state = try LedgerState(repository: repository, tip: tip, index: index)
        guard state.signers.contains(signingKey.publicKey) else {
            throw AppendError(
                source: path, rule: "signingKey.notAllowed",
                reason: "\(OpenSSHKey.fingerprint(signingKey.publicKey)) is not in \(LedgerLayout.allowedSignersPath)")
        }
        return (repository, tip, state)
    }

    /// The git directory of the repository at `path` (where the writer lock lives).
    /// The git directory of the ledger at `path`, refusing a repository with a work tree before anything is
    /// written — the writer lock included (docs/DECISIONS.md "Bare repositories only": commits go through the
    /// object database, so a work tree would go stale after the first write).
    private static func gitDirectory(_ path: String) throws(AppendError) -> String {
        let repository: Repository
        do {
            repository = try Repository.open(path)
        } catch {
            throw AppendError.git(error, source: path)
        }
        guard repository.isBare else {
            throw AppendError(
                source: path, rule: "ledger.bare",
                reason: "a repository with a work tree, not a ledger: a ledger is a bare repository (docs/DECISIONS.md "
                    + "\"Bare repositories only\"); append to the bare ledger this was cloned from; nothing was written"
            )
        }
        return repository.gitDirectory
    }

    private static func isLostRace(_ error: GitError) -> Bool {
        error.code == .modified || error.code == .exists || error.code == .locked
    }

    /// A short randomized pause so two racing writers do not retry in lockstep.
    private static func backOff(_ attempt: Int) {
        usleep(UInt32.random(in: 0...UInt32(min(attempt, 20) * 500)))
    }

    private static func isEmptyDirectory(_ path: String) -> Bool {
        guard let directory = opendir(path) else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { return false }
        }
        return true
    }
}

extension Ledger {
    /// Writes the replay state this process keeps for the ledgers it appended to into their state files
    /// now (done anyway when the process exits): a long-running appender calls it now and then so that
    /// another process's next append continues from it instead of rebuilding.
    public static func saveWriterState() {
        ReplayStateCache.shared.flush()
    }

    /// Repacks the ledger into one pack (see `Repository.repackAll(tip:)`) under the writer lock, so no
    /// append runs meanwhile; returns packs replaced.
    public static func repack(path: String) throws(AppendError) -> Int {
        try writing(path) { _ in
            let repository = try Repository.open(path)
            guard let tip = try repository.referenceTarget(LedgerLayout.branch) else {
                throw AppendError(source: path, rule: "ledger.empty", reason: "no \(LedgerLayout.branch)")
            }
            let replaced = try repository.repackAll(tip: tip)
            PackUsage.recordRepack(gitDirectory: repository.gitDirectory)
            return replaced
        }
    }
}
