public import LedgerFormat
public import LedgerStore

/// What the commits before the current one established: the state each policy judges a commit against.
public struct ReplayState: Sendable, Equatable {
    public let trustRoot: TrustRoot
    /// The time verification runs at (`--at`): no commit may claim a later time.
    public internal(set) var now: Instant
    public var commitsSeen = 0
    public var previous: ObjectID?
    /// The previous commit's time (whole seconds): the lower end of the next commit's time window.
    public var previousTime: Int64?
    public var descriptor: LedgerDescriptor?
    /// The log keys handed over before the one in force, oldest first (docs/FORMAT.md, "Log handover"): a
    /// handover may not go back to one of them, key or origin.
    public var retiredLogs: [NoteKey] = []
    /// The signers the *next* commit must be signed by (nil before the root: the trust root decides).
    public var signers: AllowedSigners?
    public var logSize: Int64 = 0
    public var logHead = WriteLogEntry.genesis
    /// The part of the state that grows with the ledger — every binding's record, shared identities,
    /// revocation effects, status attempts, manifests, the retry window — held once, as the files beside a
    /// checkpoint keep it (``ReplayMaps``).
    public var maps = ReplayMaps()
    public var profilePlatform: String?
    public var lastWriteTime: Instant?
    /// Which batch stores each record so far: how the next commits' references are found, and how a
    /// second copy of a record is recognized (format version 2).
    public var records = RecordIndex()
    /// The ledger's transparency log so far (its right edge): what the next checkpoint must state.
    public var log = CompactRange()
    /// The body (origin, size, root) of the checkpoint in force: what a witness's cosignature must sign.
    public var checkpointBody: String?
    /// The authorities' names the binding records' facts share (``BindingRecord/receive(_:shared:)``).
    var sharedStrings = SharedStrings()

    public init(trustRoot: TrustRoot, now: Instant) {
        self.trustRoot = trustRoot
        self.now = now
    }

    /// Whether a mandate so far names `binding`.
    public func isMandated(_ binding: WireString) -> Bool { maps.bindings[binding]?.isMandated ?? false }

    /// The verdicts about `binding` received so far, as the evaluator's facts.
    public func facts(of binding: WireString) -> [VerdictFact] { maps.bindings[binding]?.facts ?? [] }

    /// The verdicts that may fold on `binding`: its own and those of every binding a redeemed recovery moves
    /// into it (`GrantRedemption.sources(of:_:)`); the fold places each at its time.
    public func foldFacts(of binding: WireString, redemptions: [GrantRedemption.Effect]) -> [VerdictFact] {
        GrantRedemption.sources(of: binding, redemptions).flatMap { facts(of: $0) }
    }

    /// The records a redemption file names, as its commit's loader found them.
    static func resolved(_ file: LoadedFile) -> GrantRedemption.Resolved {
        GrantRedemption.Resolved(
            grant: file.checks.referenced(Grant.self), mandate: file.checks.referenced(Mandate.self),
            manifest: file.checks.referenced(AuthorityManifest.self))
    }

    /// Each redemption `step` adds, judged in order against the state before it, the step's verdicts
    /// (`newFacts`, by binding) and the redemptions before it in the step: the one judgement
    /// GrantPolicy reports and WriteReplayPolicy replays.
    func judgedRedemptions(in step: CommitStep, newFacts: [WireString: [VerdictFact]])
        -> [(file: LoadedFile, judgement: Result<GrantRedemption.Effect, GrantRedemption.Refusal>)]
    {
        var earlier = maps.redemptions
        var judged: [(file: LoadedFile, judgement: Result<GrantRedemption.Effect, GrantRedemption.Refusal>)] = []
        for file in step.files {
            guard let redemption: Redemption = file.record() else { continue }
            let sources = GrantRedemption.sources(of: redemption.fromBinding, earlier)
            let facts = sources.flatMap { self.facts(of: $0) + (newFacts[$0] ?? []) }
            let judgement = GrantRedemption.judge(
                redemption, resolved: Self.resolved(file), facts: facts, earlier: earlier)
            if case .success(let effect) = judgement { earlier.append(effect) }
            judged.append((file, judgement))
        }
        return judged
    }

    /// The step's verdicts the replay executes, by the binding they name.
    static func newFacts(in step: CommitStep) -> [WireString: [VerdictFact]] {
        var found: [WireString: [VerdictFact]] = [:]
        for file in step.files {
            if let fact = file.executedFact { found[fact.deviceBinding, default: []].append(fact) }
        }
        return found
    }

    /// The bits of `binding`'s last successful write so far.
    public func lastWritten(of binding: WireString) -> DeviceBits? { maps.bindings[binding]?.lastWritten }

    /// Changes `binding`'s record (a new one when the ledger has not named it before).
    mutating func update(_ binding: WireString, _ change: (inout BindingRecord) -> Void) {
        var record = maps.bindings[binding] ?? BindingRecord()
        change(&record)
        maps.bindings.set(binding, record)
    }

    /// Keeps the record index and the binding table, past `limits`, in tables in the limits' folder
    /// (``MemoryLimits``).
    public mutating func spill(_ limits: MemoryLimits) {
        records.spill(into: limits.folder, limit: limits.records)
        maps.bindings.spill = BindingTable.Spill(folder: limits.folder, limit: limits.bindings)
    }

    /// Gives back the memory pages lookups touched in the record index's and the binding table's tables
    /// loaded from the state folder, which are mapped (a spilled table is read, never mapped).
    public func releasePages() {
        records.releasePages()
        maps.bindings.releasePages()
    }

    /// Whether `key` may sign the next commit.
    public func admitsSigner(_ key: Ed25519.PublicKey) -> Bool {
        if let signers { return signers.contains(key) }
        return trustRoot.admits(key)
    }

    /// The descriptor in force for a commit: its own when it is the root, else the state's.
    func descriptor(for step: CommitStep) -> LedgerDescriptor? {
        step.files.lazy.compactMap(\.descriptor).first ?? descriptor
    }

    /// Where the log stands after `step`: advanced by the entries that continue it (`LogPosition`).
    static func logPosition(after step: CommitStep, size: Int64, head: String) -> (size: Int64, head: String) {
        let position = LogPosition(size: size, head: head).advanced(by: step.files.compactMap(\.entry))
        return (position.size, position.head)
    }

    /// Works out, once per commit, each receipt's verdict as the replay executes it
    /// (``LoadedFile/executedFact``). A verdict stored in the same commit had its operator signature checked
    /// by the loader with the key this check would use (its mandate's consented manifest's): that status is
    /// taken rather than verifying the same signature again.
    static func noteExecutedFacts(_ files: [LoadedFile]) {
        var checked: [ContentAddress: SignatureStatus] = [:]
        for file in files {
            if let verdict = file.verdict, let status = file.checks.signatures[.operator] {
                checked[verdict.ref] = status
            }
        }
        for file in files where file.receipt != nil {
            file.executedFact = fact(for: file, signatures: checked)
        }
    }

    /// The evaluator's view of a receipt's verdict, when the verdict and its mandate resolve; `signatures`
    /// holds operator-signature statuses already checked, by verdict.
    static func fact(for receiptFile: LoadedFile, signatures: [ContentAddress: SignatureStatus]) -> VerdictFact? {
        guard let receipt = receiptFile.receipt, let verdict = receiptFile.checks.referenced(Verdict.self),
            let mandate = receiptFile.checks.referenced(Mandate.self)
        else { return nil }
        return executedFact(
            verdict, receivedAt: receipt.receivedAt, mandate: mandate,
            manifest: receiptFile.checks.referenced(AuthorityManifest.self), signature: signatures[verdict.ref])
    }

    /// A received verdict as the replay executes it — or nil when it is not executed: its consented manifest
    /// is not in the ledger, or it fails verdict validation at its receipt time (profile §6.1, reference §4.1).
    /// The reference refuses such a verdict at intake and never executes it; a vendor that stored it anyway
    /// is reported by VerdictValidationPolicy (conduct), and the bits it may have written after it are
    /// judged by what the valid verdicts give (docs/DECISIONS.md, "Stored invalid verdicts are not executed").
    /// The one rule the fold, its rebuild from the tree and the writer share.
    /// `signature` is the verdict's operator-signature status when it was already checked with the consented
    /// manifest's key (nil: the check verifies it).
    static func executedFact(
        _ verdict: Verdict, receivedAt: Instant, mandate: Mandate, manifest: AuthorityManifest?,
        signature: SignatureStatus? = nil
    ) -> VerdictFact? {
        guard let manifest,
            case .success = VerdictValidator.validate(
                verdict, mandate: mandate, manifest: manifest, now: receivedAt, signature: signature)
        else { return nil }
        return VerdictFact(verdict: verdict, receivedAt: receivedAt, manifest: manifest)
    }

    /// Advances past `step` (after the policies judged it): new signers, log position, bindings. Returns the
    /// records the index now locates by this step's files — each decoded from the blob the index names, under
    /// the address it was indexed by — for a record lookup to keep (`RecordCache.keep(_:)`).
    @discardableResult
    public mutating func apply(_ step: CommitStep) -> [any StoredRecord] {
        commitsSeen += 1
        previous = step.id
        previousTime = step.commit.time
        var indexed: [any StoredRecord] = []
        for file in step.files {
            if let batch = file.batch {
                if let key = RecordIndex.Key(file.meaning), let blob = file.blob,
                    records.insert(key, RecordIndex.Location(batch: batch, blob: blob)),
                    let record = file.storedRecord, RecordIndex.Key(type(of: record), record.address) == key
                {
                    indexed.append(record)
                }
                records.noteBatch(batch)
            }
            switch file.content {
            case .success(.descriptor(let value)):
                // The root's descriptor; afterwards only a log handover replaces it, and only its `log` is taken
                // (DescriptorPolicy reports any other change).
                if descriptor == nil {
                    descriptor = value
                } else {
                    if let old = descriptor?.log, value.log != old { retiredLogs.append(old) }
                    descriptor?.log = value.log
                }
            case .success(.allowedSigners(let value)):
                signers = value
            case .success(.checkpoint(let note)):
                checkpointBody = note.text
            case .success(.record(let record)):
                fold(
                    record, receiptFact: record is VerdictReceipt ? file.executedFact : nil,
                    redemption: record is Redemption ? Self.resolved(file) : nil)
            default:
                break
            }
        }
        // The log advances by the entries that continue it, in order; the chain policy reports the rest.
        let position = Self.logPosition(after: step, size: logSize, head: logHead)
        for entry in step.files.compactMap(\.entry) where entry.sequence > logSize && entry.sequence <= position.size {
            fold(entry)
        }
        logSize = position.size
        logHead = position.head
        for leaf in step.leafHashes { log.append(leaf) }
        maps.recentIdempotencyKeys.advance(step.trailers?.idempotencyKey)
        return indexed
    }

    // MARK: - The fold's parts (the fold of a commit and the rebuild from a tree run the same ones)

    /// The stored kinds ``fold(_:receiptFact:)`` reads: the rebuild from a tree reads only these.
    static let foldedKinds: [any StoredRecord.Type] = [
        EnforcementProfile.self, AuthorityManifest.self, Mandate.self, VerdictReceipt.self, StatusAttempt.self,
        RevocationDetermination.self, Redemption.self,
    ]

    /// What one stored record adds to the state, in the order the ledger stores them. `receiptFact` is the
    /// evaluator's fact of a receipt's verdict (``executedFact(_:receivedAt:mandate:manifest:signature:)``), nil when it
    /// is not executed; `redemption` the records a redemption names (its effect is folded only when it is
    /// within the rules, `GrantRedemption.judge(_:resolved:facts:earlier:)`).
    mutating func fold(
        _ record: any StoredRecord, receiptFact: VerdictFact?, redemption: GrantRedemption.Resolved? = nil
    ) {
        switch record {
        case let mandate as Mandate:
            var binding = maps.bindings[mandate.deviceBinding] ?? BindingRecord()
            maps.identities.add(mandate, first: &binding.identity)
            maps.bindings.set(mandate.deviceBinding, binding)
        case let manifest as AuthorityManifest:
            maps.manifests.append(manifest)
        case let attempt as StatusAttempt:
            maps.statusAttempts.append(attempt)
        case let revocation as RevocationDetermination:
            maps.revocations.append(revocation.effect)
        case let redeemed as Redemption:
            guard let redemption else { break }
            let facts = foldFacts(of: redeemed.fromBinding, redemptions: maps.redemptions)
            if case .success(let effect) = GrantRedemption.judge(
                redeemed, resolved: redemption, facts: facts, earlier: maps.redemptions)
            {
                maps.redemptions.append(effect)
            }
        case is VerdictReceipt:
            guard let fact = receiptFact else { break }
            var binding = maps.bindings[fact.deviceBinding] ?? BindingRecord()
            binding.receive(fact, shared: &sharedStrings)
            maps.bindings.set(fact.deviceBinding, binding)
        case let profile as EnforcementProfile:
            if descriptor?.profile == profile.ref || profilePlatform == nil { profilePlatform = profile.platform }
        default:
            break
        }
    }

    /// What one write-log entry that continues the log adds: a successful write's bits and time.
    mutating func fold(_ entry: WriteLogEntry) {
        guard entry.succeeded else { return }
        update(entry.deviceBinding) { $0.lastWritten = DeviceBits(caseOpen: entry.caseOpen, banned: entry.banned) }
        lastWriteTime = max(lastWriteTime ?? entry.recordedAt, entry.recordedAt)
    }
}
