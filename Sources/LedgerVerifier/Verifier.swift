public import LedgerFormat
public import LedgerStore

#if canImport(Glibc)
    import Glibc
#endif

/// `onym-ledger verify`: the auditor's offline check of a whole ledger, commit by commit.
///
/// Streams: one commit's files are in memory at a time; what persists across commits is the
/// ``ReplayState`` (signers, descriptor, log position, the set of mandated device bindings).
/// Signatures are checked on both cores; nothing spawns git or ssh-keygen.
public enum Verifier {
    public struct Options: Sendable {
        /// The pinned root of trust; nil to use the one remembered in the auditor's state.
        public var trustRoot: TrustRoot?
        /// The verification time (no commit may be dated after it).
        public var now: Instant
        /// Start after this commit: one the remembered state holds, or one whose allowed signers the
        /// given root of trust admits.
        public var since: ObjectID?
        /// The auditor's state folder (``AuditorState``); nil remembers nothing and resumes from nothing.
        public var stateRoot: String?
        /// Resume from the remembered tip (off for `--full`, which still keeps the remembered trust).
        public var resume = true
        /// Acknowledge reported rewrites and allow a new root of trust (`--forget`); recorded in the journal.
        public var forget = false
        /// Called for every policy decision (`--explain`).
        public var diagnostic: (@Sendable (ReplayEvent) -> Void)?
        /// Called after each commit with (done, total) (progress on a terminal).
        public var progress: (@Sendable (Int, Int) -> Void)?
        public var policies: [any LedgerPolicy] = StandardLedgerPolicy.policies
        /// Witnesses whose cosignatures of the tip's checkpoint are required (`--witness`), how many of
        /// them (`--quorum`), and how old a cosignature may be (`--max-age`, seconds).
        public var witnesses: [NoteKey] = []
        public var quorum = 0
        public var witnessMaxAge: Int64?
        /// How much of the state that grows with the ledger the run holds in memory (``MemoryLimits``).
        public var memory = MemoryLimits()

        public init(trustRoot: TrustRoot?, now: Instant) {
            self.trustRoot = trustRoot
            self.now = now
        }
    }

    /// Input that cannot be verified at all (not a repository, no branch, unreadable objects), or a
    /// request verify refuses (no trust, a trust that contradicts the remembered one, a bad `--since`).
    public struct InputError: Error, CustomStringConvertible, Sendable {
        public enum Kind: Sendable { case noTrustRoot, refused, unreadable, internalError }
        public let kind: Kind
        public let description: String
    }

    public static func verify(path: String, options: Options) throws(InputError) -> VerificationReport {
        let repository: Repository
        let tip: ObjectID
        let ledgerId: String
        var chain: CommitChain
        let firstCommit: ObjectID
        do {
            repository = try Repository.openForReading(path)
            guard let found = try repository.referenceTarget(LedgerLayout.branch) else {
                throw InputError(kind: .unreadable, description: "\(path): no \(LedgerLayout.branch); not a ledger")
            }
            tip = found
            // Before libgit2 reads a single object: packs whose delta chains it would follow forever.
            // An incremental run skips packs this auditor scanned clean before; --full scans them all (and
            // remembers the clean ones for the next run).
            let unsafePacks = PackScan.findings(
                gitDirectory: repository.gitDirectory, memory: options.stateRoot.map { $0 + "/scanned-packs" },
                rescan: !options.resume)
            guard unsafePacks.isEmpty else { return refusedUnread(tip: tip, unsafePacks) }
            // A run that may continue from a verified tip walks back only to it; that tip's folder names the
            // history's first commit. Any other run (--full, --since, nothing remembered) walks to the root.
            ledgerId = AuditSession.ledgerId(repository: repository, tip: tip)
            let remembered =
                options.resume && options.since == nil
                ? options.stateRoot.map { AuditorState.rememberedTips(root: $0, ledgerId: ledgerId) } ?? [:] : [:]
            chain = try CommitChain(repository: repository, tip: tip, stoppingAt: Set(remembered.keys))
            if let oversized = chain.oversized { return refusedOversized(tip: tip, oversized) }
            firstCommit = chain.base.flatMap { remembered[$0] } ?? chain.ids.first ?? tip
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(kind: .unreadable, description: "\(path): \(error)")
        }
        var session = try AuditSession(
            repository: repository, ledgerId: ledgerId, firstCommit: firstCommit, options: options)
        let trustRoot = session.trustRoot

        var state = ReplayState(trustRoot: trustRoot, now: options.now)
        var summary = VerificationSummary()
        var failures = RepositoryShape.findings(repository) + session.standingFindings(tip: tip)
        var start: ObjectID?
        do {
            if let since = options.since {
                try session.admitSince(since)
                guard chain.contains(since) else {
                    failures.append(
                        PolicyFailure(
                            policy: HistoryPolicy.name, commit: tip,
                            reason:
                                "the tip \(tip.hex) does not descend from --since \(since.hex): history was rewritten"))
                    summary.tip = tip
                    return VerificationReport(summary: summary, failures: failures)
                }
                start = since
                summary.countsCoverCheckedRangeOnly = true
                failures += session.rememberedConductFindings(through: since, in: chain)
                try state.restore(&summary, at: since, repository: repository, checkpoint: nil)
                state.commitsSeen = chain.count(through: since) ?? state.commitsSeen
                summary.commits = state.commitsSeen
            } else if let checkpoint = session.rememberedCheckpoint {
                if chain.contains(checkpoint.tip) {
                    // Continuing needs the history's conduct findings so far; without them, check it all again.
                    if options.resume, let conduct = checkpoint.conductFindings {
                        start = checkpoint.tip
                        failures += conduct
                        try state.restore(&summary, at: checkpoint.tip, repository: repository, checkpoint: checkpoint)
                    }
                } else if let finding = session.recordRewrite(of: checkpoint.tip, seen: tip) {
                    failures.append(finding)
                }
            }
            if start == nil, !chain.reachesRoot {
                // Walked back to a verified tip this run does not continue from (another root of trust, no
                // conduct findings kept): the whole history is checked.
                try chain.extendToRoot(repository)
                if let oversized = chain.oversized { return refusedOversized(tip: tip, oversized) }
            }
            summary.resumedFrom = start
            // The record index and the binding table grow with the ledger: past their limits they are kept in
            // tables beside the run, read with pread (docs/DECISIONS.md, "A long run keeps its growing state in
            // tables"); the mapped tables a resumed run loaded give their pages back now and then.
            state.spill(options.memory)
            let signaturesBefore = summary.signaturesChecked
            let commits = chain.commits(after: start)
            let clock = PhaseClock()
            let loader = CommitLoader(repository: repository, clock: clock)
            // Git reads, decoding and hashing of the next commits run on their own thread meanwhile.
            let readAhead = CommitReadAhead(path: repository.path, ids: commits, descriptor: state.descriptor)
            defer { readAhead.stop() }
            let disposal = StepDisposal()
            defer { disposal.drain() }
            for (offset, id) in commits.enumerated() {
                let read = try readAhead.next()
                clock.lap("wait for the reading thread")
                let step = try loader.finish(read, index: state.commitsSeen, state: state)
                assert(step.id == id)
                for policy in options.policies {
                    let found = policy.evaluate(step, state: state)
                    failures += found
                    options.diagnostic?(ReplayEvent(commit: id, policy: policy.name, failures: found))
                    clock.lap("policy: \(policy.name)")
                }
                account(step, into: &summary)
                if let handover = LogHandover.made(by: step, previous: state.descriptor, size: state.log.size) {
                    summary.logHandovers.append(handover)
                }
                loader.keep(state.apply(step))
                if offset % Self.pagesReleasedEvery == Self.pagesReleasedEvery - 1 { state.releasePages() }
                clock.lap("apply")
                disposal.dispose(step)
                options.progress?(offset + 1, commits.count)
            }
            clock.report()
            PhaseClock.note("records read again for later references: \(loader.lookup.reads)")
            summary.commitsChecked = commits.count
            summary.signaturesCheckedThisRun = summary.signaturesChecked - signaturesBefore
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(kind: .unreadable, description: "\(path): \(error)")
        }
        summary.tip = tip
        summary.logHead = state.logHead
        summary.writeEntries = state.logSize
        summary.ledgerId = state.descriptor?.ledgerId
        summary.interface = state.descriptor?.interface.text
        summary.appleAccount = state.descriptor?.appleAccount
        summary.signers = state.signers?.keys.map { OpenSSHKey.fingerprint($0) } ?? []
        summary.sharedBindings = state.maps.identities.shared
        summary.transparencyLog = state.descriptor?.log.map { ($0, state.log.size, state.log.root) }
        if !options.witnesses.isEmpty {
            failures += Witness.quorumFindings(
                repository: repository, tip: tip, checkpointBody: state.checkpointBody, witnesses: options.witnesses,
                quorum: options.quorum, now: options.now.seconds, maxAge: options.witnessMaxAge)
        }
        let authentic = !failures.contains { $0.kind == .integrity }
        if authentic {
            var checkpoint = Checkpoint(of: state, tip: tip, trust: session.trustFingerprints, summary: summary)
            checkpoint.logHandovers = summary.logHandovers
            checkpoint.conductFindings = failures.filter { $0.kind == .conduct }
            try session.remember(checkpoint, compliant: failures.isEmpty)
        }
        var history: VerifiedHistory?
        if authentic {
            do {
                let snapshot = try LedgerSnapshot(repository: repository, tip: tip, index: state.records)
                history = VerifiedHistory(snapshot: snapshot, state: state)
            } catch {
                throw InputError(kind: .unreadable, description: "\(path): \(error)")
            }
        }
        var report = VerificationReport(summary: summary, failures: failures, history: history)
        report.evidence = session.evidence
        report.stateFolder = session.folder
        report.trust = session.trustFingerprints
        return report
    }

    /// How often (in commits) the mapped tables give back the pages lookups touched.
    static let pagesReleasedEvery = 64

    /// A report for a repository refused because a commit on its chain is too large to read.
    private static func refusedOversized(tip: ObjectID, _ oversized: (id: ObjectID, size: Int)) -> VerificationReport {
        refusedUnread(
            tip: tip,
            [
                PolicyFailure(
                    policy: RecordLimitsPolicy.name, commit: oversized.id,
                    reason:
                        "a commit object of \(oversized.size) bytes, over the \(CommitChain.maxCommitBytes)-byte "
                        + "limit; it and the history below it were not read")
            ])
    }

    /// A report for a repository refused before its history was read.
    private static func refusedUnread(tip: ObjectID, _ failures: [PolicyFailure]) -> VerificationReport {
        var summary = VerificationSummary()
        summary.tip = tip
        return VerificationReport(summary: summary, failures: failures)
    }

    // MARK: - Summary

    private static func account(_ step: CommitStep, into summary: inout VerificationSummary) {
        summary.commits += 1
        if summary.firstCommitTime == nil { summary.firstCommitTime = step.commit.time }
        summary.lastCommitTime = step.commit.time
        if case .parsed = step.signature { summary.signaturesChecked += 1 }
        for file in step.files {
            summary.bytesChecked += file.bytes.count
            summary.signaturesChecked += file.checks.signaturesChecked
            if file.meaning == .checkpoint { summary.signaturesChecked += 1 }
            let kind: String
            switch file.meaning {
            case .record(let stored, _): kind = stored.kindName
            case .logEntry: kind = RecordKind.writeLogEntry.rawValue
            default: continue
            }
            summary.recordsByKind[kind, default: 0] += 1
        }
    }
}

/// One policy's decision on one commit, for `--explain` and for tests of the exact sequence.
public struct ReplayEvent: Sendable, CustomStringConvertible {
    public let commit: ObjectID
    public let policy: String
    public let failures: [PolicyFailure]

    public var description: String {
        failures.isEmpty
            ? "\(commit.short) \(policy): ok" : failures.map { "\(commit.short) \($0)" }.joined(separator: "\n")
    }
}
