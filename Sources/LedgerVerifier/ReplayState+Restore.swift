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
        let info = try repository.commit(commit)
        guard let descriptorBytes = try repository.blob(at: LedgerLayout.descriptorPath, inCommit: commit),
            let signerBytes = try repository.blob(at: LedgerLayout.allowedSignersPath, inCommit: commit),
            let trailers = LedgerTrailers(message: info.message)
        else {
            throw Verifier.InputError(
                kind: .unreadable, description: "\(commit.short) is not a ledger commit to resume from")
        }
        state.descriptor = try LedgerDescriptor(json: try CanonicalJSON.parse(descriptorBytes))
        state.signers = try AllowedSigners(text: String(decoding: signerBytes, as: UTF8.self))
        state.previous = commit
        state.previousTime = info.time
        state.logSize = trailers.logSize
        state.logHead = trailers.logHead
        // Which batch stores each record: listed from the batch folders' trees, contents unread.
        // Which batch stores each record: the checkpoint's index, else listed from the batch folders' trees
        // (names only, contents unread) — which a rebuild without the checkpoint's replay part reads anyway.
        let resumable = checkpoint?.records != nil && checkpoint?.replay != nil
        let stored = resumable ? [] : try repository.batchFiles(inCommit: commit)
        if let index = checkpoint?.records {
            state.records = index
        } else {
            for file in stored {
                if let key = RecordIndex.Key(file.meaning) { state.records.insert(key, batch: file.batch) }
            }
        }
        if let checkpoint {
            state.commitsSeen = checkpoint.commits
            state.bindings = Set(checkpoint.bindings)
            state.identities = checkpoint.identities
            state.profilePlatform = checkpoint.profilePlatform
            state.lastWritten = checkpoint.lastWritten
            state.lastWriteTime = checkpoint.lastWriteTime
            summary.commits = checkpoint.commits
            summary.recordsByKind = checkpoint.recordsByKind
            summary.signaturesChecked = checkpoint.signaturesChecked
            summary.firstCommitTime = checkpoint.firstCommitTime
        } else {
            // The commit counts come from the caller's chain.
            for bytes in try Self.records(Mandate.self, in: stored, repository: repository) {
                let mandate = try Mandate(json: try CanonicalJSON.parse(bytes))
                state.bindings.insert(mandate.deviceBinding)
                state.identities.add(mandate)
            }
            state.lastWritten = try Self.lastWrittenBits(upTo: trailers.logSize, at: commit, repository: repository)
            if let profile = state.descriptor?.profile,
                let batch = state.records.batch(of: EnforcementProfile.self, profile),
                let bytes = try repository.blob(
                    at: LedgerLayout.recordPath(EnforcementProfile.self, profile, batch: batch), inCommit: commit)
            {
                state.profilePlatform = try? EnforcementProfile(json: try CanonicalJSON.parse(bytes)).platform
            }
        }
        summary.lastCommitTime = info.time
        state.log = try checkpoint?.transparencyLog ?? Self.transparencyLog(at: commit, repository: repository)
        state.checkpointBody = try repository.blob(
            at: LedgerLayout.checkpointPath, inCommit: commit, limit: Limits.maxRecordBytes
        )
        .flatMap { try? SignedNote(parsing: String(decoding: $0, as: UTF8.self)).text }
        if let replay = checkpoint?.replay {
            replay.restore(into: &state)
            return
        }
        state.facts = try Self.receivedVerdicts(in: stored, repository: repository)
        state.manifests = try Self.records(AuthorityManifest.self, in: stored, repository: repository).map {
            try AuthorityManifest(rawBytes: $0)
        }
        state.statusAttempts = try Self.records(StatusAttempt.self, in: stored, repository: repository).map {
            try StatusAttempt(json: try CanonicalJSON.parse($0))
        }
        state.revocations = try Self.records(RevocationDetermination.self, in: stored, repository: repository).map {
            try RevocationDetermination(json: try CanonicalJSON.parse($0)).effect
        }
    }

    /// The files of one stored kind among the batch folders' files.
    private static func entries(_ kind: any StoredRecord.Type, in stored: [Repository.BatchFile]) -> [TreeEntry] {
        stored.compactMap { file in
            if case .record(let found, _) = file.meaning, found == kind { return file.entry }
            return nil
        }
    }

    /// Every record of one stored kind among the batch folders' files, read.
    private static func records(
        _ kind: any StoredRecord.Type, in stored: [Repository.BatchFile], repository: Repository
    )
        throws -> [[UInt8]]
    {
        try entries(kind, in: stored).map { (entry: TreeEntry) throws(GitError) in
            try repository.readBlob(entry.id, limit: Limits.maxRecordBytes)
        }
    }

    /// Every receipted verdict in the tree at `commit`, as evaluator facts by device binding (the
    /// replay's state when a run resumes from a checkpoint).
    private static func receivedVerdicts(in stored: [Repository.BatchFile], repository: Repository) throws
        -> [String: [VerdictFact]]
    {
        // Each kind listed once from its trees (name → object), then read by id: no path lookups.
        func listing(_ kind: any StoredRecord.Type) throws -> [String: ObjectID] {
            var ids: [String: ObjectID] = [:]
            for entry in entries(kind, in: stored) { ids[entry.name] = entry.id }
            return ids
        }
        let verdictIDs = try listing(Verdict.self)
        var mandateIDs: [String: ObjectID]?
        var manifestIDs: [String: ObjectID]?
        func read(_ id: ObjectID?) throws -> [UInt8]? {
            try id.map { (id: ObjectID) throws(GitError) in try repository.readBlob(id, limit: Limits.maxRecordBytes) }
        }
        var facts: [String: [VerdictFact]] = [:]
        var mandates: [ContentAddress: Mandate] = [:]
        var manifests: [ContentAddress: AuthorityManifest] = [:]
        for bytes in try Self.records(VerdictReceipt.self, in: stored, repository: repository) {
            let receipt = try VerdictReceipt(json: try CanonicalJSON.parse(bytes))
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
            let fact = VerdictFact(
                verdict: verdict, receivedAt: receipt.receivedAt, manifest: manifests[mandate.manifestHash])
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

    /// Each binding's last successful write, read from the log — resuming without a checkpoint, or the
    /// verified history asked about an earlier time: the entries are listed from the log's trees and read
    /// by id, in sequence order, up to `size`, counting only writes recorded at or before `time` if given.
    static func lastWrittenBits(
        upTo size: Int64, recordedBy time: Instant? = nil, at commit: ObjectID, repository: Repository
    ) throws -> [String: DeviceBits] {
        var bits: [String: DeviceBits] = [:]
        for file in try repository.logEntries(inCommit: commit) {
            let entry = try WriteLogEntry(
                json: try CanonicalJSON.parse(try repository.readBlob(file.id, limit: Limits.maxRecordBytes)))
            guard entry.sequence <= size else { break }
            if entry.succeeded, time.map({ entry.recordedAt <= $0 }) ?? true {
                bits[entry.deviceBinding] = DeviceBits(caseOpen: entry.caseOpen, banned: entry.banned)
            }
        }
        return bits
    }
}
