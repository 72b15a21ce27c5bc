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

    /// Rebuilds the replay state as of `commit` from its tree, its trailers and (when given) the checkpoint.
    mutating func restore(
        _ summary: inout VerificationSummary, at commit: ObjectID, repository: Repository, checkpoint: Checkpoint?
    ) throws {
        var state = self
        defer { self = state }
        // Which batch stores each record: the checkpoint's index, else listed from the batch folders' trees
        // (names only, contents unread) — which a rebuild without the checkpoint's maps reads anyway.
        let snapshot = try LedgerSnapshot(repository: repository, tip: commit, index: checkpoint?.records)
        guard let trailers = snapshot.trailers else {
            throw Verifier.InputError(
                kind: .unreadable, description: "\(commit.short) is not a ledger commit to resume from")
        }
        state.descriptor = try snapshot.descriptor()
        // The keys a handover may not go back to: the checkpoint's, else read from the history's descriptors.
        state.retiredLogs =
            try checkpoint?.retiredLogs
            ?? LogKeyHistory.keys(repository, endingAt: commit).dropLast().compactMap(\.key)
        state.signers = try snapshot.allowedSigners()
        state.previous = commit
        state.previousTime = snapshot.commit.time
        state.logSize = trailers.logSize
        state.logHead = trailers.logHead
        state.records = snapshot.index
        if let checkpoint {
            state.commitsSeen = checkpoint.commits
            state.profilePlatform = checkpoint.profilePlatform
            state.lastWriteTime = checkpoint.lastWriteTime
            summary.commits = checkpoint.commits
            summary.recordsByKind = checkpoint.recordsByKind
            summary.logHandovers = checkpoint.logHandovers
            summary.signaturesChecked = checkpoint.signaturesChecked
            summary.firstCommitTime = checkpoint.firstCommitTime
        } else if let profile = state.descriptor?.profile {
            // The commit counts come from the caller's chain.
            state.profilePlatform = (try? snapshot.decodable(EnforcementProfile.self, profile))?.platform
        }
        summary.lastCommitTime = snapshot.commit.time
        state.log = try checkpoint?.transparencyLog ?? Self.transparencyLog(at: commit, repository: repository)
        state.checkpointBody = try snapshot.checkpointBody()
        if let maps = checkpoint?.maps {
            maps.restore(into: &state)
            return
        }
        state.recentIdempotencyKeys = try RecentIdempotencyKeys.read(endingAt: commit, repository: repository)
        // Without the maps: every binding's identity, last write and facts, from the tree.
        var records: [String: BindingRecord] = [:]
        state.identities = BindingIdentities()
        for mandate in try snapshot.all(Mandate.self) {
            state.identities.add(mandate, first: &records[mandate.deviceBinding, default: BindingRecord()].identity)
        }
        for (binding, bits) in try snapshot.lastWrittenBits(upTo: trailers.logSize) {
            records[binding, default: BindingRecord()].lastWritten = bits
        }
        for (binding, facts) in try Self.receivedVerdicts(in: snapshot) {
            records[binding, default: BindingRecord()].facts = facts
        }
        state.bindings = BindingTable(records)
        state.manifests = try snapshot.all(AuthorityManifest.self)
        state.statusAttempts = try snapshot.all(StatusAttempt.self)
        state.revocations = try snapshot.all(RevocationDetermination.self).map(\.effect)
    }

    /// Every receipted verdict at the snapshot's commit, as evaluator facts by device binding (the replay's
    /// state when a run resumes without the checkpoint's replay part).
    private static func receivedVerdicts(in snapshot: LedgerSnapshot) throws -> [String: [VerdictFact]] {
        // Each kind listed once from its trees (name → object), then read by id: no path lookups.
        func listing(_ kind: any StoredRecord.Type) throws -> [String: ObjectID] {
            var ids: [String: ObjectID] = [:]
            for entry in try snapshot.entries(kind) { ids[entry.name] = entry.id }
            return ids
        }
        let repository = snapshot.repository
        let verdictIDs = try listing(Verdict.self)
        var mandateIDs: [String: ObjectID]?
        var manifestIDs: [String: ObjectID]?
        func read(_ id: ObjectID?) throws -> [UInt8]? {
            try id.map { (id: ObjectID) throws(GitError) in try repository.readBlob(id, limit: Limits.maxRecordBytes) }
        }
        var facts: [String: [VerdictFact]] = [:]
        var mandates: [ContentAddress: Mandate] = [:]
        var manifests: [ContentAddress: AuthorityManifest] = [:]
        for receipt in try snapshot.all(VerdictReceipt.self) {
            guard let verdictBytes = try read(verdictIDs[receipt.verdictRef.hex + ".json"]) else { continue }
            let verdict = try Verdict(json: try CanonicalJSON.parse(verdictBytes))
            if mandates[verdict.mandateRef] == nil {
                if mandateIDs == nil { mandateIDs = try listing(Mandate.self) }
                if let mandateBytes = try read(mandateIDs![verdict.mandateRef.hex + ".json"]) {
                    mandates[verdict.mandateRef] = try Mandate(json: try CanonicalJSON.parse(mandateBytes))
                }
            }
            guard let mandate = mandates[verdict.mandateRef] else { continue }
            if manifests[mandate.manifestHash] == nil {
                if manifestIDs == nil { manifestIDs = try listing(AuthorityManifest.self) }
                if let manifestBytes = try read(manifestIDs![mandate.manifestHash.hex + ".json"]) {
                    manifests[mandate.manifestHash] = try AuthorityManifest(rawBytes: manifestBytes)
                }
            }
            guard
                let fact = executedFact(
                    verdict, receivedAt: receipt.receivedAt, mandate: mandate, manifest: manifests[mandate.manifestHash]
                )
            else { continue }
            facts[fact.deviceBinding, default: []].append(fact)
        }
        return facts
    }

    /// The transparency log's right edge at `commit`, re-hashed from every file every commit up to it added
    /// or changed (`LedgerLog`): resuming without a checkpoint that holds it.
    static func transparencyLog(at commit: ObjectID, repository: Repository) throws -> CompactRange {
        var range = CompactRange()
        var parentTree: ObjectID?
        for id in try repository.history(from: commit) {
            let tree = try repository.commit(id).tree
            for entry in LedgerLog.entries(of: try repository.loggedFiles(from: parentTree, to: tree)) {
                range.append(Merkle.leafHash(entry))
            }
            parentTree = tree
        }
        return range
    }
}
