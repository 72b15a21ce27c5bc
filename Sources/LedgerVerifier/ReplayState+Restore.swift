import LedgerFormat
import LedgerStore

/// Rebuilding the replay state as of a commit, to continue from it: an incremental `verify` (from the
/// auditor's checkpoint, or a `--since` commit), and the writer judging a batch against its tip.
extension ReplayState {
    /// The replay state at `commit` from a checkpoint of it (the auditor's, or the writer's own state
    /// file): the descriptor, signers and log position come from the commit, the rest from the checkpoint.
    public static func resumed(
        at commit: ObjectID, from checkpoint: Checkpoint, repository: Repository, trustRoot: TrustRoot, now: Instant
    ) throws -> ReplayState {
        var state = ReplayState(trustRoot: trustRoot, now: now)
        var summary = VerificationSummary()
        try state.restore(&summary, at: commit, repository: repository, checkpoint: checkpoint)
        return state
    }

    /// Rebuilds the replay state as of `commit`: what the commit states itself (descriptor, signers, log
    /// position, checkpoint) from its tree and trailers; what the history folded to from the checkpoint when
    /// given, else by the fold's own parts (``fold(_:receiptFact:)``, ``fold(_:)``) run over the records the
    /// tree stores, in the order the ledger stored them — the references of each receipt found through the
    /// one lookup (`RecordLookup`, by way of the snapshot).
    mutating func restore(
        _ summary: inout VerificationSummary, at commit: ObjectID, repository: Repository, checkpoint: Checkpoint?
    ) throws {
        var state = ReplayState(trustRoot: trustRoot, now: now)
        defer { self = state }
        // Which batch stores each record: the checkpoint's index, else listed from the batch folders' trees
        // (names only, contents unread) — which a rebuild without the checkpoint's maps reads anyway.
        let snapshot = try LedgerSnapshot(repository: repository, tip: commit, index: checkpoint?.records)
        guard let trailers = snapshot.trailers else {
            throw Verifier.InputError(
                kind: .unreadable, description: "\(commit.short) is not a ledger commit to resume from")
        }
        state.descriptor = try snapshot.descriptor()
        state.signers = try snapshot.allowedSigners()
        state.previous = commit
        state.previousTime = snapshot.commit.time
        state.logSize = trailers.logSize
        state.logHead = trailers.logHead
        state.checkpointBody = try snapshot.checkpointBody()
        state.records = snapshot.index
        summary.lastCommitTime = snapshot.commit.time
        if checkpoint?.maps == nil {
            try state.foldRecords(of: snapshot, logSize: trailers.logSize)
            state.maps.recentIdempotencyKeys = try RecentIdempotencyKeys.read(endingAt: commit, repository: repository)
        }
        if let checkpoint {
            checkpoint.restore(into: &state, summary: &summary)
            if checkpoint.transparencyLog == nil {
                state.log = try Self.transparencyLog(at: commit, repository: repository)
            }
        } else {
            (state.log, state.commitsSeen) = try Self.rehashedLog(at: commit, repository: repository)
            // The keys a handover may not go back to, read from the history's descriptors.
            state.retiredLogs = try LogKeyHistory.keys(repository, endingAt: commit).dropLast().compactMap(\.key)
        }
    }

    /// Runs the fold's parts over every record the snapshot's tree stores of the kinds they read, in batch
    /// order (each commit's records are one batch: the order the fold met them), and over the write log's
    /// first `logSize` entries.
    private mutating func foldRecords(of snapshot: LedgerSnapshot, logSize: Int64) throws {
        maps = ReplayMaps()
        for file in try snapshot.batchFiles() {
            guard case .record(let kind, _) = file.meaning, Self.foldedKinds.contains(where: { $0 == kind }),
                let record = try snapshot.record(in: file)
            else { continue }
            let fact = try (record as? VerdictReceipt).map { (receipt) throws(GitError) in
                try Self.fact(for: receipt, in: snapshot)
            }
            let redemption = try (record as? Redemption).map { (redemption) throws(GitError) in
                try Self.resolved(redemption, in: snapshot)
            }
            fold(record, receiptFact: fact ?? nil, redemption: redemption)
        }
        for entry in try snapshot.logEntries(upTo: logSize) { fold(entry) }
    }

    /// The evaluator's fact of a stored receipt's verdict: the verdict, its mandate and the mandate's
    /// manifest found through the snapshot's lookup (a file that does not decode counts as absent, as in
    /// the fold), then ``executedFact(_:receivedAt:mandate:manifest:signature:)``.
    private static func fact(for receipt: VerdictReceipt, in snapshot: LedgerSnapshot) throws(GitError)
        -> VerdictFact?
    {
        guard let verdict = try snapshot.decodable(Verdict.self, receipt.verdictRef),
            let mandate = try snapshot.decodable(Mandate.self, verdict.mandateRef)
        else { return nil }
        return executedFact(
            verdict, receivedAt: receipt.receivedAt, mandate: mandate,
            manifest: try snapshot.decodable(AuthorityManifest.self, mandate.manifestHash))
    }

    /// The records a stored redemption names, found through the snapshot's lookup.
    private static func resolved(_ redemption: Redemption, in snapshot: LedgerSnapshot) throws(GitError)
        -> GrantRedemption.Resolved
    {
        let mandate = try snapshot.decodable(Mandate.self, redemption.mandateRef)
        return GrantRedemption.Resolved(
            grant: try snapshot.decodable(Grant.self, redemption.grantRef), mandate: mandate,
            manifest: try mandate.map { (mandate) throws(GitError) in
                try snapshot.decodable(AuthorityManifest.self, mandate.manifestHash)
            } ?? nil)
    }

    /// The transparency log's right edge at `commit`, re-hashed from every file every commit up to it added
    /// or changed (`LedgerLog`): resuming without a checkpoint that holds it.
    static func transparencyLog(at commit: ObjectID, repository: Repository) throws -> CompactRange {
        try rehashedLog(at: commit, repository: repository).log
    }

    /// ``transparencyLog(at:repository:)``, and the number of commits up to `commit` (one history walk).
    static func rehashedLog(at commit: ObjectID, repository: Repository) throws -> (log: CompactRange, commits: Int) {
        var range = CompactRange()
        var parentTree: ObjectID?
        let history = try repository.history(from: commit)
        for id in history {
            let tree = try repository.commit(id).tree
            for entry in LedgerLog.entries(of: try repository.loggedFiles(from: parentTree, to: tree)) {
                range.append(Merkle.leafHash(entry))
            }
            parentTree = tree
        }
        return (range, history.count)
    }
}
