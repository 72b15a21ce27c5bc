import LedgerFormat
import LedgerStore

/// Validates a whole batch against the ledger as of its tip, and plans the files it adds.
///
/// Everything is checked before anything is written (canonical form and content address come from
/// re-encoding; schema via the decoders; signatures; verdict validation at the batch time; chain
/// continuity; references to records in the ledger or the same batch). Any failure throws an
/// ``AppendError`` naming the input file, the record and the rule.
struct BatchPlanner {
    let state: LedgerState
    /// The batch time (`--at`): receipts are recorded at it and verdicts validated against it.
    let at: Instant

    private var plan: BatchPlan
    private var plannedPaths: Set<String> = []
    private var batchMandates: [ContentAddress: Mandate] = [:]
    private var batchManifests: [ContentAddress: AuthorityManifest] = [:]
    /// The manifests the ledger holds at the tip (read once, when the batch brings a manifest).
    private var knownManifests: [AuthorityManifest]?
    private var batchVerdicts: [ContentAddress: Verdict] = [:]
    private var batchEntries: [Int64: WriteLogEntry] = [:]
    private var explicitReceipts: Set<ContentAddress> = []
    /// Signature checks done up front on both cores: mandates (user, interface) and submitted verdicts
    /// (under their consented manifest's operator), by ref.
    private var mandateSignatures: [ContentAddress: (user: SignatureStatus, interface: SignatureStatus)] = [:]
    private var verdictSignatures: [ContentAddress: (manifest: ContentAddress, status: SignatureStatus)] = [:]

    init(state: LedgerState, at: Instant) {
        self.state = state
        self.at = at
        self.plan = BatchPlan(
            trailers: LedgerTrailers(logSize: state.trailers.logSize, logHead: state.trailers.logHead))
    }

    /// Plans `items` in order of dependency: profiles, manifests, mandates, verdicts, receipts, then
    /// the write log in input order.
    static func plan(_ items: [BatchItem], state: LedgerState, at: Instant, idempotencyKey: String? = nil)
        throws(AppendError) -> BatchPlan
    {
        var planner = BatchPlanner(state: state, at: at)
        if let reason = TimeWindow.commitViolation(planner.window) {
            throw AppendError(source: "--at", record: at.rfc3339, rule: TimeWindow.ruleName, reason: reason)
        }
        planner.checkSignaturesInParallel(items)
        for item in items {
            if case .profile(let profile) = item.content { try planner.addProfile(profile, source: item.source) }
        }
        for item in items {
            switch item.content {
            case .manifest(let manifest, let signature):
                try planner.addManifest(manifest, signature: signature, source: item.source)
            case .submission(let submission):
                do {
                    try planner.addManifest(try submission.manifest(), signature: nil, source: item.source)
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
            if case .mandate(let mandate) = item.content { try planner.addMandate(mandate, source: item.source) }
        }
        for item in items {
            if case .receipt(let receipt) = item.content { planner.explicitReceipts.insert(receipt.verdictRef) }
        }
        for item in items {
            switch item.content {
            case .verdict(let verdict): try planner.addVerdict(verdict, submitted: nil, source: item.source)
            case .submission(let submission):
                try planner.addVerdict(submission.verdict, submitted: submission, source: item.source)
            default: break
            }
        }
        for item in items {
            if case .receipt(let receipt) = item.content { try planner.addReceipt(receipt, source: item.source) }
        }
        for item in items {
            switch item.content {
            case .statusAttempt(let attempt): try planner.addStatusAttempt(attempt, source: item.source)
            case .compromiseReport(let report): try planner.addCompromiseReport(report, source: item.source)
            default: break
            }
        }
        for item in items {
            if case .revocation(let revocation) = item.content {
                try planner.addRevocation(revocation, source: item.source)
            }
        }
        let requests = items.flatMap { item -> [WriteRequest] in
            if case .writeRequests(let requests) = item.content { return requests }
            return []
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
        if !retried {
            planner.plan.trailers.writesDigest = digest
            planner.plan.trailers.idempotencyKey = idempotencyKey
        }
        return planner.plan
    }

    private mutating func checkSignaturesInParallel(_ items: [BatchItem]) {
        let descriptor = state.descriptor
        let mandates = items.compactMap { item -> Mandate? in
            if case .mandate(let mandate) = item.content { return mandate }
            return nil
        }
        for (mandate, statuses) in zip(
            mandates,
            parallelMap(
                mandates,
                { mandate in
                    (
                        mandate.userSignatureStatus,
                        mandate.interfaceSignatureStatus(
                            candidates: descriptor.countersigningKeys(for: mandate.authority))
                    )
                }))
        {
            mandateSignatures[mandate.ref] = (statuses.0, statuses.1)
        }
        let submitted = items.compactMap { item -> (Verdict, AuthorityManifest)? in
            guard case .submission(let submission) = item.content, let manifest = try? submission.manifest() else {
                return nil
            }
            return (submission.verdict, manifest)
        }
        for (pair, status) in zip(
            submitted, parallelMap(submitted, { $0.0.signatureStatus(operatorKey: $0.1.operatorKey) }))
        {
            verdictSignatures[pair.0.ref] = (pair.1.hash, status)
        }
    }

    /// The window the batch's commit will have: after the tip, up to the batch time.
    private var window: TimeWindow.Window { TimeWindow.Window(parentTime: state.commitTime, commitTime: at.seconds) }

    /// The verifier's time rule (``TimeWindow``), applied to a record before it is planned.
    private func requireInWindow(_ record: some TimedRecord, source: String, record name: String) throws(AppendError) {
        if let reason = TimeWindow.violations(record.timedFields, in: window).first {
            throw AppendError(source: source, record: name, rule: TimeWindow.ruleName, reason: reason)
        }
    }

    // MARK: - Files

    /// Adds a file unless the ledger or the batch already holds it; true when added.
    private mutating func addFile(_ path: String, _ bytes: [UInt8]) throws(AppendError) -> Bool {
        if plannedPaths.contains(path) { return false }
        if try state.contains(path) {
            plan.counts.alreadyPresent += 1
            return false
        }
        plannedPaths.insert(path)
        plan.files.append((path, bytes))
        return true
    }

    // MARK: - Records

    private mutating func addProfile(_ profile: EnforcementProfile, source: String) throws(AppendError) {
        if try addFile(LedgerLayout.recordPath(.profile, profile.ref), CanonicalJSON.encode(profile.json)) {
            plan.counts.profiles += 1
        }
    }

    private mutating func addManifest(_ manifest: AuthorityManifest, signature: [UInt8]?, source: String)
        throws(AppendError)
    {
        if knownManifests == nil {
            knownManifests = try state.allRecords(.manifest).compactMap { try? AuthorityManifest(rawBytes: $0) }
        }
        if let reason = AuthorityIdentity.conflict(manifest, known: knownManifests! + batchManifests.values) {
            throw AppendError(
                source: source, record: manifest.hash.hex, rule: AuthorityIdentity.ruleName, reason: reason)
        }
        batchManifests[manifest.hash] = manifest
        if try addFile(LedgerLayout.recordPath(.manifest, manifest.hash), manifest.rawBytes) {
            plan.counts.manifests += 1
        }
        if let signature {
            guard manifest.detachedSignatureStatus(signature) == .valid else {
                throw AppendError(
                    source: source, record: manifest.hash.hex, rule: "manifest.detachedSignature",
                    reason:
                        "the detached signature does not verify under the manifest's operator \(manifest.operatorKey)")
            }
            _ = try addFile(LedgerLayout.manifestSignaturePath(manifest.hash), signature)
        }
    }

    private mutating func addMandate(_ mandate: Mandate, source: String) throws(AppendError) {
        let record = mandate.ref.hex
        guard mandate.interface == state.descriptor.interface else {
            throw AppendError(
                source: source, record: record, rule: "mandate.interface",
                reason: "the mandate is for \(mandate.interface), this ledger is \(state.descriptor.interface)'s")
        }
        let checked = mandateSignatures[mandate.ref]
        let userStatus = checked?.user ?? mandate.userSignatureStatus
        guard userStatus == .valid else {
            throw AppendError(
                source: source, record: record, rule: "mandate.userSignature",
                reason: "signatures[0] is \(userStatus.rawValue) under the user key \(mandate.userKey)"
            )
        }
        let candidates = state.descriptor.countersigningKeys(for: mandate.authority)
        let countersignature = checked?.interface ?? mandate.interfaceSignatureStatus(candidates: candidates)
        guard countersignature == .valid else {
            let reason: String
            switch countersignature {
            case .missing: reason = "the interface countersignature (signatures[1]) is missing"
            case .keyUnknown: reason = "ledger.json lists no interface countersigning key for \(mandate.authority)"
            default:
                reason = "signatures[1] verifies under no interface key the descriptor lists for \(mandate.authority)"
            }
            throw AppendError(source: source, record: record, rule: "mandate.interfaceSignature", reason: reason)
        }
        try requireInWindow(mandate, source: source, record: record)
        batchMandates[mandate.ref] = mandate
        if try addFile(LedgerLayout.recordPath(.mandate, mandate.ref), CanonicalJSON.encode(mandate.json)) {
            plan.counts.mandates += 1
        }
    }

    private mutating func mandate(_ ref: ContentAddress) throws(AppendError) -> Mandate? {
        if let mandate = batchMandates[ref] { return mandate }
        return try state.mandate(ref)
    }

    private mutating func manifest(_ hash: ContentAddress) throws(AppendError) -> AuthorityManifest? {
        if let manifest = batchManifests[hash] { return manifest }
        return try state.manifest(hash)
    }

    private mutating func addVerdict(_ verdict: Verdict, submitted: VerdictSubmission?, source: String)
        throws(AppendError)
    {
        let record = verdict.ref.hex
        let path = LedgerLayout.recordPath(.verdict, verdict.ref)
        if batchVerdicts[verdict.ref] != nil { return }
        if try state.contains(path) {
            // A duplicate delivery: a no-op by verdictRef, like the reference's put_verdict.
            plan.counts.alreadyPresent += 1
            return
        }
        guard let mandate = try mandate(verdict.mandateRef) else {
            throw AppendError(
                source: source, record: record, rule: "verdict.noMandate",
                reason: "mandate \(verdict.mandateRef) is neither in the ledger nor in this batch")
        }
        guard let manifest = try manifest(mandate.manifestHash) else {
            throw AppendError(
                source: source, record: record, rule: "verdict.noManifest",
                reason: "the mandate's manifest \(mandate.manifestHash) is not in the ledger; deliver the verdict as a "
                    + "submission with its consentedManifest, or append the manifest")
        }
        let outcome: VerdictValidator.Outcome
        let presigned = verdictSignatures[verdict.ref].flatMap { $0.manifest == manifest.hash ? $0.status : nil }
        switch VerdictValidator.validate(verdict, mandate: mandate, manifest: manifest, now: at, signature: presigned) {
        case .success(let result): outcome = result
        case .failure(let rejection):
            throw AppendError(
                source: source, record: record, rule: "verdict.\(rejection.rule.rawValue)",
                reason: rejection.reason)
        }
        batchVerdicts[verdict.ref] = verdict
        if try addFile(path, CanonicalJSON.encode(verdict.json)) { plan.counts.verdicts += 1 }
        if !explicitReceipts.contains(verdict.ref) {
            // Arrived without a receipt: recorded as received at the batch time.
            let receipt = VerdictReceipt(verdictRef: verdict.ref, status: outcome.receiptStatus, receivedAt: at)
            if try addFile(LedgerLayout.recordPath(.receipt, verdict.ref), CanonicalJSON.encode(receipt.json)) {
                plan.counts.receipts += 1
            }
        }
    }

    private mutating func addReceipt(_ receipt: VerdictReceipt, source: String) throws(AppendError) {
        let record = receipt.verdictRef.hex
        let path = LedgerLayout.recordPath(.receipt, receipt.verdictRef)
        let bytes = CanonicalJSON.encode(receipt.json)
        if let existing = try state.file(path) {
            guard existing == bytes else {
                throw AppendError(
                    source: source, record: record, rule: "receipt.conflict",
                    reason: "the ledger already holds a different receipt for this verdict")
            }
            plan.counts.alreadyPresent += 1
            return
        }
        try requireInWindow(receipt, source: source, record: record)
        var verdict = batchVerdicts[receipt.verdictRef]
        if verdict == nil, let bytes = try state.file(LedgerLayout.recordPath(.verdict, receipt.verdictRef)) {
            do {
                verdict = try Verdict(json: try CanonicalJSON.parse(bytes))
            } catch {
                throw AppendError(source: state.repository.path, record: record, error)
            }
        }
        guard let verdict else {
            throw AppendError(
                source: source, record: record, rule: "receipt.noVerdict",
                reason: "verdict \(record) is neither in the ledger nor in this batch")
        }
        guard let mandate = try mandate(verdict.mandateRef), let manifest = try manifest(mandate.manifestHash) else {
            throw AppendError(
                source: source, record: record, rule: "receipt.noVerdict",
                reason: "the verdict's mandate or manifest is missing")
        }
        switch VerdictValidator.validate(verdict, mandate: mandate, manifest: manifest, now: receipt.receivedAt) {
        case .success(let outcome):
            guard outcome.receiptStatus == receipt.status else {
                throw AppendError(
                    source: source, record: record, rule: "receipt.status",
                    reason: "status is \(receipt.status.rawValue) but the verdict is \(outcome.receiptStatus.rawValue) "
                        + "at \(receipt.receivedAt)")
            }
        case .failure(let rejection):
            throw AppendError(
                source: source, record: record, rule: "receipt.verdictInvalid",
                reason: "at receivedAt the verdict fails \(rejection)")
        }
        if try addFile(path, bytes) { plan.counts.receipts += 1 }
    }

    // MARK: - Designation revocation

    private var batchAttempts: [ContentAddress: StatusAttempt] = [:]
    private var batchReports: [ContentAddress: CompromiseReport] = [:]

    private mutating func addStatusAttempt(_ attempt: StatusAttempt, source: String) throws(AppendError) {
        let record = attempt.ref.hex
        guard attempt.interface == state.descriptor.interface else {
            throw AppendError(
                source: source, record: record, rule: "statusAttempt.interface",
                reason: "the attempt is \(attempt.interface)'s, this ledger is \(state.descriptor.interface)'s")
        }
        guard attempt.signatureStatus(keys: state.descriptor.countersigningKeys(for: attempt.authority)) == .valid
        else {
            throw AppendError(
                source: source, record: record, rule: "statusAttempt.signature",
                reason: "the signature verifies under no interface key the descriptor lists for \(attempt.authority)")
        }
        try requireInWindow(attempt, source: source, record: record)
        batchAttempts[attempt.ref] = attempt
        if try addFile(LedgerLayout.recordPath(.statusAttempt, attempt.ref), CanonicalJSON.encode(attempt.json)) {
            plan.counts.revocationRecords += 1
        }
    }

    private mutating func addCompromiseReport(_ report: CompromiseReport, source: String) throws(AppendError) {
        let record = report.ref.hex
        guard let manifest = try manifest(report.manifestHash), manifest.componentId == report.authority else {
            throw AppendError(
                source: source, record: record, rule: "compromiseReport.manifest",
                reason: "the ledger holds no manifest \(report.manifestHash) of \(report.authority)")
        }
        guard report.signatureStatus(keys: [manifest.operatorKey]) == .valid else {
            throw AppendError(
                source: source, record: record, rule: "compromiseReport.signature",
                reason: "the report is not signed by the manifest's operator key")
        }
        try requireInWindow(report, source: source, record: record)
        batchReports[report.ref] = report
        if try addFile(LedgerLayout.recordPath(.compromiseReport, report.ref), CanonicalJSON.encode(report.json)) {
            plan.counts.revocationRecords += 1
        }
    }

    private mutating func addRevocation(_ revocation: RevocationDetermination, source: String) throws(AppendError) {
        let record = revocation.ref.hex
        guard revocation.interface == state.descriptor.interface,
            revocation.signatureStatus(keys: state.descriptor.countersigningKeys(for: revocation.authority)) == .valid
        else {
            throw AppendError(
                source: source, record: record, rule: "revocation.signature",
                reason: "not signed by this ledger's interface key for \(revocation.authority)")
        }
        try requireInWindow(revocation, source: source, record: record)
        func decodeAll<T>(_ kind: LedgerLayout.StoredKind, _ decode: (JSONObject) throws -> T) throws(AppendError)
            -> [T]
        {
            try state.allRecords(kind).compactMap { bytes in try? decode(try CanonicalJSON.parse(bytes)) }
        }
        let attempts = try decodeAll(.statusAttempt) { try StatusAttempt(json: $0) } + Array(batchAttempts.values)
        let reports = try decodeAll(.compromiseReport) { try CompromiseReport(json: $0) } + Array(batchReports.values)
        let manifests =
            try state.allRecords(.manifest).compactMap { try? AuthorityManifest(rawBytes: $0) }
            + Array(batchManifests.values)
        if let reason = DesignationRevocation.unjustified(
            revocation, reports: Dictionary(reports.map { ($0.ref, $0) }, uniquingKeysWith: { a, _ in a }),
            attempts: Dictionary(attempts.map { ($0.ref, $0) }, uniquingKeysWith: { a, _ in a }), allAttempts: attempts,
            manifests: manifests)
        {
            throw AppendError(source: source, record: record, rule: "revocation.unjustified", reason: reason)
        }
        if try addFile(LedgerLayout.recordPath(.revocation, revocation.ref), CanonicalJSON.encode(revocation.json)) {
            plan.counts.revocationRecords += 1
        }
    }

    // MARK: - Write log

    private mutating func existingEntry(_ sequence: Int64) throws(AppendError) -> WriteLogEntry? {
        if let entry = batchEntries[sequence] { return entry }
        return try state.logEntry(sequence)
    }

    private mutating func addChainedEntry(_ entry: WriteLogEntry, source: String) throws(AppendError) {
        let record = "sequence \(entry.sequence)"
        guard entry.recomputedHash == entry.entryHash else {
            throw AppendError(
                source: source, record: record, rule: "chain.entryHash",
                reason: "entryHash \(entry.entryHash) but the fields hash to \(entry.recomputedHash)")
        }
        if entry.sequence <= plan.trailers.logSize {
            // Already logged (audit exports always restart at sequence 1): must be identical.
            guard let existing = try existingEntry(entry.sequence), existing == entry else {
                throw AppendError(
                    source: source, record: record, rule: "chain.conflict",
                    reason: "the ledger's entry \(entry.sequence) differs from this one")
            }
            plan.counts.alreadyPresent += 1
            return
        }
        guard entry.sequence == plan.trailers.logSize + 1 else {
            throw AppendError(
                source: source, record: record, rule: "chain.sequence",
                reason: "the log holds \(plan.trailers.logSize) entries; the next is \(plan.trailers.logSize + 1)")
        }
        guard entry.previousHash == plan.trailers.logHead else {
            throw AppendError(
                source: source, record: record, rule: "chain.previousHash",
                reason: "previousHash \(entry.previousHash) does not continue the log head \(plan.trailers.logHead)")
        }
        try appendEntry(entry, source: source)
    }

    private mutating func addWriteRequest(_ request: WriteRequest, source: String, index: Int) throws(AppendError) {
        let entry: WriteLogEntry
        do {
            entry = try request.entry(sequence: plan.trailers.logSize + 1, previousHash: plan.trailers.logHead)
        } catch {
            throw AppendError(source: source, record: "write \(index + 1)", error)
        }
        try appendEntry(entry, source: source)
    }

    private mutating func appendEntry(_ entry: WriteLogEntry, source: String) throws(AppendError) {
        let record = "sequence \(entry.sequence)"
        try requireInWindow(entry, source: source, record: record)
        var bound = batchMandates.values.contains { $0.deviceBinding == entry.deviceBinding }
        if !bound { bound = try state.hasMandate(forBinding: entry.deviceBinding) }
        guard bound else {
            throw AppendError(
                source: source, record: record, rule: "entry.deviceBinding",
                reason: "no mandate in the ledger or this batch names device binding \(entry.deviceBinding)")
        }
        batchEntries[entry.sequence] = entry
        // Entries past the ledger's log size cannot exist yet: no lookup needed.
        let path = LedgerLayout.logEntryPath(entry.sequence)
        plannedPaths.insert(path)
        plan.files.append((path, CanonicalJSON.encode(entry.json)))
        plan.counts.entries += 1
        plan.trailers.logSize = entry.sequence
        plan.trailers.logHead = entry.entryHash
    }
}
