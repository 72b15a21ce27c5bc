public import LedgerFormat
public import LedgerVerifier
public import LedgerStore

#if canImport(Glibc)
    import Glibc
#endif

/// The writer's front end: create a ledger (``initialize(path:descriptor:signingKey:at:profile:logKey:origin:now:)``);
/// an ``Appender`` appends batches to it and rotates its keys. What an append returns (``AppendResult``), and
/// the one way every commit is made (`judgedCommit`).
///
/// Every operation validates everything first and writes nothing on failure.
public enum Ledger {
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
        /// A suggestion to run `repack` (``PackUsage``), when the packs have grown enough. Nil as well, in an
        /// appender of several batches, after a batch that ended with a pack merge still being written (the
        /// packs are counted after a later one).
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
            var state: ReplayState?
            let commit = try judgedCommit(
                repository, signingKey, logKey: logSigner, files: files, parent: nil, message: message,
                time: at, now: now ?? wallClock(), sources: [:], otherwise: path, state: &state
            ).commit
            if let state { WriterStateFile.save(state, at: commit, gitDirectory: repository.gitDirectory) }
            return commit
        } catch let error as AppendError {
            throw error
        } catch {
            throw AppendError(source: path, rule: "git", reason: "\(error)")
        }
    }

    // MARK: - Helpers

    /// The system clock, whole seconds: the moment of writing when the caller gives none.
    static func wallClock() -> Instant { Instant(seconds: Int64(Glibc.time(nil))) }

    /// Builds the commit in memory, has the verifier's policies judge it against its parent
    /// (``CandidateCommit``), and publishes it only when nothing refuses it: one rulebook for `append`
    /// and `verify`. Returns the commit and the conduct findings about its writes.
    ///
    /// `state` is the replay state at `parent` when the caller holds it (an ``Appender``'s; for a root, set
    /// here): judged in place and, once the commit is published, advanced in place to it — never copied,
    /// which would copy every map the ledger has grown, once per batch. A state at another commit is
    /// dropped (the judgement rebuilds the parent's from the tree). `records` are the records the caller
    /// keeps with that state: the commit's are added once it is published (`RecordCache.keep(_:)`).
    static func judgedCommit(
        _ repository: Repository, _ signer: any CommitSigner, logKey: any CommitSigner,
        files: [(path: String, bytes: [UInt8])], parent: ObjectID?, message: String,
        time: Instant, now: Instant, sources: [String: String], otherwise fallback: String,
        state: inout ReplayState?, records: RecordCache = RecordCache()
    ) throws -> (commit: ObjectID, conduct: [PolicyFailure]) {
        if parent == nil { state = ReplayState(trustRoot: TrustRoot(keys: [signer.publicKey]), now: time) }
        if state?.previous != parent { state = nil }
        let checkpointClock = PhaseClock()
        let descriptor = try descriptor(of: files) ?? state?.descriptor
        // Files the parent already holds are replaced (a rotated signers file, a handed-over descriptor).
        let replaced: Set<String> =
            parent == nil
            ? [] : Set(files.map(\.path)).intersection([LedgerLayout.allowedSignersPath, LedgerLayout.descriptorPath])
        let files =
            files + [
                try checkpointFile(
                    for: files, replacing: replaced, after: state?.log, descriptor: descriptor, logKey: logKey)
            ]
        checkpointClock.lap("checkpoint")
        checkpointClock.report()
        let writer = SignedCommitWriter(repository: repository, key: signer)
        let prepared = try writer.prepare(files: files, parent: parent, message: message, time: time)
        let clock = PhaseClock()
        let judgement = try CandidateCommit.judge(
            prepared.id, parent: parent, in: repository, signer: signer.publicKey, now: now, known: state,
            records: records)
        clock.lap("judge")
        clock.report()
        let refusals = judgement.refusals
        guard refusals.isEmpty else {
            throw AppendError(refusing: refusals, sources: sources, otherwise: fallback)
        }
        CrashPoint.reach(.afterValidation)
        try CrashPoint.fault(.afterValidation)
        try writer.publish(prepared)
        // The caller saves the state (``Appender/close()``).
        let applying = PhaseClock()
        if state != nil { records.keep(state!.apply(judgement.step)) }
        applying.lap("apply")
        applying.report()
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
    static func noteKey(origin: String, signer: any CommitSigner, rule: String, reason: String)
        throws(AppendError) -> NoteKey
    {
        guard LedgerDescriptor.isUsableOrigin(origin),
            let key = NoteKey(name: origin, type: NoteKey.ed25519, publicKey: signer.publicKey)
        else { throw AppendError(source: "--origin", record: origin, rule: rule, reason: reason) }
        return key
    }

    /// The git directory of the ledger at `path` (where the writer lock lives), refusing a repository with a
    /// work tree before anything is written — the writer lock included (docs/DECISIONS.md "Bare repositories
    /// only": commits go through the object database, so a work tree would go stale after the first write).
    static func bareGitDirectory(_ path: String) throws(AppendError) -> String {
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
