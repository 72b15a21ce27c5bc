import LedgerFormat
import LedgerStore

/// Lays a batch out as the files of the commit it would make: what is about planning, and nothing
/// that is about judging (the writer plans, the policies judge).
///
/// It orders the records by dependency, skips what the ledger already holds, records a receipt for a
/// verdict that arrived without one, continues the write log's chain for write requests, and
/// recognizes a retried batch by its idempotency key. Whether the result is lawful — signatures,
/// scopes, time order, references, the replay — is decided by the verifier's policies over the
/// commit this plan becomes (``CandidateCommit``), before anything is published.
struct BatchPlanner {
    let state: LedgerState
    /// The batch time (`--at`): receipts are recorded at it.
    let at: Instant

    private var plan: BatchPlan
    private var batchMandates: [ContentAddress: Mandate] = [:]
    private var batchManifests: [ContentAddress: AuthorityManifest] = [:]
    private var batchVerdicts: Set<ContentAddress> = []
    private var batchEntries: [Int64: WriteLogEntry] = [:]
    private var explicitReceipts: Set<ContentAddress> = []
    /// Where the write log stands after the entries planned so far.
    private var position: LogPosition

    init(state: LedgerState, at: Instant) {
        self.state = state
        self.at = at
        self.position = LogPosition(size: state.trailers.logSize, head: state.trailers.logHead)
        self.plan = BatchPlan(trailers: LedgerTrailers(logSize: position.size, logHead: position.head))
    }

    /// Plans `items` in order of dependency: profiles, manifests, mandates, verdicts, receipts, revocation
    /// records, then the write log in input order.
    static func plan(_ items: [BatchItem], state: LedgerState, at: Instant, idempotencyKey: String? = nil)
        throws(AppendError) -> BatchPlan
    {
        var planner = BatchPlanner(state: state, at: at)
        for item in items {
            if let profile: EnforcementProfile = item.record() {
                if try planner.add(profile, item.source) {
                    planner.plan.counts.profiles += 1
                }
            }
        }
        // The submissions to one authority carry the same consented manifest: decoded once a batch (decoding
        // is a function of the bytes alone).
        var consented: [ManifestBytes: AuthorityManifest] = [:]
        for item in items {
            switch item.content {
            case .manifest(let manifest, let signature):
                try planner.addManifest(manifest, signature: signature, source: item.source)
            case .submission(let submission):
                do {
                    let bytes = ManifestBytes(submission.consentedManifestBytes)
                    let manifest: AuthorityManifest
                    if let decoded = consented[bytes] {
                        manifest = decoded
                    } else {
                        manifest = try submission.manifest()
                        consented[bytes] = manifest
                    }
                    try planner.addManifest(manifest, signature: nil, source: item.source)
                } catch let error as AppendError {
                    throw error
                } catch let error as LedgerFormatError {
                    throw AppendError(source: item.source, error)
                } catch {
                    throw AppendError(source: item.source, rule: "batch", reason: "\(error)")
                }
            default: break
            }
        }
        for item in items {
            if let mandate: Mandate = item.record() {
                planner.batchMandates[mandate.ref] = mandate
                if try planner.add(mandate, item.source) {
                    planner.plan.counts.mandates += 1
                }
            }
        }
        for item in items {
            if let receipt: VerdictReceipt = item.record() { planner.explicitReceipts.insert(receipt.verdictRef) }
        }
        for item in items {
            if let verdict: Verdict = item.record() { try planner.addVerdict(verdict, source: item.source) }
            if case .submission(let submission) = item.content {
                try planner.addVerdict(submission.verdict, source: item.source)
            }
        }
        for item in items {
            if let receipt: VerdictReceipt = item.record() {
                if try planner.add(receipt, item.source) {
                    planner.plan.counts.receipts += 1
                }
            }
        }
        // Every other stored kind is planned as it is, after the records it may cite.
        for item in items {
            guard case .record(let record) = item.content, !Self.plannedAbove(record) else { continue }
            if try planner.add(record, item.source) {
                if record is StatusAttempt || record is CompromiseReport || record is RevocationDetermination {
                    planner.plan.counts.revocationRecords += 1
                } else {
                    planner.plan.counts.otherRecords += 1
                }
            }
        }
        for item in items {
            guard case .cosignatures(let notes) = item.content else { continue }
            for note in notes {
                let path = LedgerLayout.cosignaturePath(keyID: note.signatures[0].keyID)
                let state = planner.state
                if try planner.add(
                    path, Array(note.formatted.utf8), item.source,
                    published: { () throws(AppendError) in try state.file(path) })
                {
                    planner.plan.counts.cosignatures += 1
                }
            }
        }
        let requests = items.flatMap { item -> [WriteRequest] in
            if case .writeRequests(let requests) = item.content { return requests }
            return []
        }
        // `Onym-Ledger-Writes` is the digest of every entry a commit adds, and a keyed retry is recognized
        // by it: a batch either chains write requests or imports entries with their hashes, not both.
        if !requests.isEmpty,
            let exported = items.first(where: { if case .chainedEntries = $0.content { true } else { false } })
        {
            throw AppendError(
                source: exported.source, rule: "append.mixedWrites",
                reason: "write requests and entries that carry their chain hashes go in separate appends")
        }
        // A retry is recognized by the identity the caller gave the batch, never by equal content: two real
        // calls with equal requests are two entries (docs/DECISIONS.md, "The retry contract").
        let digest = requests.isEmpty ? nil : WriteRequest.digest(requests)
        var retried = false
        if let idempotencyKey, let earlier = try state.batch(withIdempotencyKey: idempotencyKey) {
            guard earlier.trailers.writesDigest == digest else {
                throw AppendError(
                    source: "--idempotency-key", record: idempotencyKey, rule: "append.idempotencyKeyReused",
                    reason: "the key names batch \(earlier.commit.hex), whose write requests differ from these; "
                        + "a retry must resend the same batch, a new batch needs a new key")
            }
            retried = true
        }
        for item in items {
            switch item.content {
            case .chainedEntries(let entries):
                for entry in entries { try planner.addChainedEntry(entry, source: item.source) }
            case .writeRequests(let requests) where retried:
                planner.plan.counts.alreadyPresent += requests.count
            case .writeRequests(let requests):
                for (index, request) in requests.enumerated() {
                    try planner.addWriteRequest(request, source: item.source, index: index)
                }
            default: break
            }
        }
        planner.plan.trailers.logSize = planner.position.size
        planner.plan.trailers.logHead = planner.position.head
        if !retried {
            planner.plan.trailers.writesDigest = digest
            planner.plan.trailers.idempotencyKey = idempotencyKey
        }
        return planner.plan
    }

    /// The stored kinds the passes above plan in their own order (profiles, mandates, verdicts, receipts).
    private static func plannedAbove(_ record: any StoredRecord) -> Bool {
        record is EnforcementProfile || record is Mandate || record is Verdict || record is VerdictReceipt
    }

    // MARK: - Files

    /// Plans a file unless the ledger or the batch already holds it with the same bytes; true when planned.
    ///
    /// Different bytes for a record the ledger holds are planned too: the commit then publishes it a second
    /// time, which the append-only policy refuses. Different bytes at a path this batch already plans
    /// cannot be laid out as one commit at all.
    /// - Parameter published: what the ledger already stores for this file (nil: nothing).
    private mutating func add(
        _ path: String, _ bytes: [UInt8], _ source: String, record: String? = nil,
        published: () throws(AppendError) -> [UInt8]?
    ) throws(AppendError) -> Bool {
        if let planned = plan.index[path] {
            guard plan.files[planned].bytes == bytes else {
                throw AppendError(
                    source: source, record: record ?? path, rule: "append.conflictingInputs",
                    reason: "\(plan.sources[path] ?? "this batch") already brings different content for \(path)")
            }
            return false
        }
        if let existing = try published(), existing == bytes {
            plan.counts.alreadyPresent += 1
            return false
        }
        plan.append(path, bytes, source: source)
        return true
    }

    /// Plans a stored record in this batch's folder (`StoredRecord`).
    private mutating func add(_ record: some StoredRecord, _ source: String) throws(AppendError) -> Bool {
        let state = state
        return try add(
            LedgerLayout.recordPath(of: record, batch: state.nextBatch), record.storedBytes, source,
            record: record.address.hex, published: { () throws(AppendError) in try state.storedBytes(like: record) })
    }

    // MARK: - Records

    private mutating func addManifest(_ manifest: AuthorityManifest, signature: [UInt8]?, source: String)
        throws(AppendError)
    {
        batchManifests[manifest.hash] = manifest
        if try add(manifest, source) {
            plan.counts.manifests += 1
        }
        if let signature {
            let state = state
            _ = try add(
                LedgerLayout.manifestSignaturePath(manifest.hash, batch: state.nextBatch), signature, source,
                published: { () throws(AppendError) in try state.manifestSignature(manifest.hash, like: signature) })
        }
    }

    /// Plans a verdict (a re-delivery is a no-op by verdictRef, like the reference's put_verdict) and,
    /// when it arrived without one, its receipt at the batch time with the status validation derives
    /// then (`stored` until `executeAfter`, else `queued`).
    private mutating func addVerdict(_ verdict: Verdict, source: String) throws(AppendError) {
        guard batchVerdicts.insert(verdict.ref).inserted else { return }
        guard try add(verdict, source) else { return }
        plan.counts.verdicts += 1
        guard !explicitReceipts.contains(verdict.ref) else { return }
        // Without its mandate and manifest no status can be derived: the verdict goes unreceipted and the
        // authority policy refuses it for the missing reference.
        var mandate = batchMandates[verdict.mandateRef]
        if mandate == nil { mandate = try state.mandate(verdict.mandateRef) }
        guard let mandate else { return }
        var manifest = batchManifests[mandate.manifestHash]
        if manifest == nil { manifest = try state.manifest(mandate.manifestHash) }
        guard let manifest else { return }
        // The signature is the authority policy's to judge; an invalid verdict gets a placeholder status
        // and the validation policy refuses it — a vendor never stores a verdict that fails validation.
        let status =
            (try? VerdictValidator.validate(verdict, mandate: mandate, manifest: manifest, now: at, signature: .valid)
            .get())?.receiptStatus ?? .queued
        let receipt = VerdictReceipt(verdictRef: verdict.ref, status: status, receivedAt: at)
        if try add(receipt, source) {
            plan.counts.receipts += 1
        }
    }

    // MARK: - Write log

    /// An entry that already carries its sequence and hashes (a reference audit export, which always
    /// restarts at sequence 1): rows the ledger holds identically are skipped; everything else is planned
    /// at its sequence's path for the chain policies to judge.
    private mutating func addChainedEntry(_ entry: WriteLogEntry, source: String) throws(AppendError) {
        if entry.sequence <= position.size {
            var existing = batchEntries[entry.sequence]
            if existing == nil { existing = try state.logEntry(entry.sequence) }
            if existing == entry {
                plan.counts.alreadyPresent += 1
                return
            }
        }
        try appendEntry(entry, source: source)
    }

    private mutating func addWriteRequest(_ request: WriteRequest, source: String, index: Int) throws(AppendError) {
        let entry: WriteLogEntry
        do {
            entry = try request.entry(sequence: position.size + 1, previousHash: position.head)
        } catch {
            throw AppendError(source: source, record: "write \(index + 1)", error)
        }
        try appendEntry(entry, source: source)
    }

    private mutating func appendEntry(_ entry: WriteLogEntry, source: String) throws(AppendError) {
        // Past the tip's log size no entry file exists yet: no lookup needed.
        let mayExist = entry.sequence <= state.trailers.logSize
        let path = LedgerLayout.logEntryPath(entry.sequence)
        let state = state
        guard
            try add(
                path, CanonicalJSON.encode(entry.json), source, record: "sequence \(entry.sequence)",
                published: { () throws(AppendError) in mayExist ? try state.file(path) : nil })
        else {
            return
        }
        batchEntries[entry.sequence] = entry
        plan.counts.entries += 1
        position = position.advanced(by: [entry])
    }
}

/// A consented manifest's bytes as a dictionary key, hashed in one call: an array of bytes hashes each byte
/// with a call of its own (a manifest is ~600 of them, looked up once a submission).
private struct ManifestBytes: Hashable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
}
