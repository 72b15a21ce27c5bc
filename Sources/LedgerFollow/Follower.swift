public import LedgerFormat
public import LedgerStore
public import LedgerVerifier
import LedgerWriter

/// `follow`: mirrors a reference backend's store into the ledger, pass by pass.
///
/// A pass reads the store in one read transaction, compares it with the ledger's tip, and publishes what the
/// ledger lacks in batches by event time, each one signed commit through the writer (an `Appender`, so
/// every batch is judged by verify's own policies before it is written). A pass killed at any point loses
/// nothing and doubles nothing: each batch is published whole or not at all, and the next pass reads what
/// was published from the ledger itself.
public struct Follower: Sendable {
    public struct Options: Sendable {
        public var ledger: String
        public var store: String
        public var signingKey: any CommitSigner
        public var logKey: (any CommitSigner)?
        public var countersigner: InterfaceCountersigner
        /// At most this many store rows per batch (a batch runs on while its rows share a time window).
        public var batchLimit: Int
        /// The moment of writing (default: the system clock), as `append`'s.
        public var now: Instant?

        public init(
            ledger: String, store: String, signingKey: any CommitSigner, logKey: (any CommitSigner)?,
            countersigner: InterfaceCountersigner, batchLimit: Int = 1000, now: Instant? = nil
        ) {
            self.ledger = ledger
            self.store = store
            self.signingKey = signingKey
            self.logKey = logKey
            self.countersigner = countersigner
            self.batchLimit = batchLimit
            self.now = now
        }
    }

    /// What one pass did.
    public struct PassResult: Sendable {
        /// Commits published, in order.
        public var commits: [ObjectID] = []
        public var imported = (mandates: 0, verdicts: 0, writes: 0)
        public var alreadyImported = (mandates: 0, verdicts: 0, writes: 0)
        /// Rows of `recoveries`, not imported: the store keeps no grant bytes for them.
        public var recoveriesNotImported = 0
        public var logSize: Int64 = 0
        public var logHead = WriteLogEntry.genesis
        /// Conduct findings of the published batches (writes the rules do not authorize are still logged).
        public var conductFindings: [PolicyFailure] = []

        public var json: JSONObject {
            func counts(_ value: (mandates: Int, verdicts: Int, writes: Int)) -> JSONValue {
                .object(
                    JSONObject([
                        ("mandates", .integer(Int64(value.mandates))), ("verdicts", .integer(Int64(value.verdicts))),
                        ("writes", .integer(Int64(value.writes))),
                    ]))
            }
            return JSONObject([
                ("commits", .array(commits.map { .string($0.hex) })), ("imported", counts(imported)),
                ("alreadyImported", counts(alreadyImported)),
                ("recoveriesNotImported", .integer(Int64(recoveriesNotImported))), ("logSize", .integer(logSize)),
                ("logHead", .string(logHead)), ("conductFindings", .array(conductFindings.map { .object($0.json) })),
            ])
        }
    }

    public let options: Options

    public init(options: Options) { self.options = options }

    /// One pass. `progress` is called after each published batch with (rows published, rows pending).
    public func pass(progress: (Int, Int) -> Void = { _, _ in }) throws(FollowError) -> PassResult {
        let state = try tipState()
        let snapshot = try BackendStore.read(
            path: options.store, logSize: state.trailers.logSize, logHead: state.trailers.logHead)
        var reader = StoreImport(
            snapshot: snapshot, state: state, countersigner: options.countersigner, storePath: options.store)
        let (records, writes) = try reader.events()
        var result = PassResult()
        result.alreadyImported = reader.alreadyImported
        result.recoveriesNotImported = snapshot.recoveries
        result.logSize = state.trailers.logSize
        result.logHead = state.trailers.logHead
        let events = FollowBatches.ordered(records: records, writes: writes)
        let tipTime = Instant(seconds: state.commitTime)
        let batches: [(events: ArraySlice<FollowEvent>, time: Instant)]
        switch FollowBatches.cut(events, limit: max(1, options.batchLimit), tipTime: tipTime) {
        case .success(let cut): batches = cut
        case .failure(let backdated):
            let early = backdated.event
            throw .refusedStore(
                row: early.items.first?.source ?? "write_log sequence \(early.entry?.sequence ?? 0)",
                rule: "store.backdated",
                evidence: "dated \(early.time.rfc3339), before the ledger's tip (\(tipTime.rfc3339)): the ledger "
                    + "publishes an event in the first batch after it happened and never backdates it "
                    + "(docs/FORMAT.md \"Time\")")
        }
        guard !batches.isEmpty else { return result }
        // One appender for the pass: it holds the writer lock and the replay state from the first batch to the
        // last, and saves the state once when the pass ends.
        let appender: Appender
        do {
            appender = try Appender.open(options.ledger)
        } catch {
            throw .append(error, batch: "opening \(options.ledger) for writing")
        }
        defer { appender.close() }
        var published = 0
        for (number, batch) in batches.enumerated() {
            var items = batch.events.flatMap(\.items)
            let entries = batch.events.compactMap(\.entry)
            if !entries.isEmpty {
                items.append(BatchItem(source: "\(options.store): write_log", content: .chainedEntries(entries)))
            }
            let appended: Ledger.AppendResult
            do {
                appended = try appender.append(
                    items: items, signingKey: options.signingKey, at: batch.time, logKey: options.logKey,
                    now: options.now)
            } catch {
                var context = "batch \(number + 1) of \(batches.count) (at \(batch.time.rfc3339))"
                if snapshot.recoveries > 0 {
                    // A recovered device's later writes name a binding only the recovery's mandate move explains.
                    context +=
                        "; the store has \(snapshot.recoveries) recoveries row\(snapshot.recoveries == 1 ? "" : "s"), "
                        + "which follow does not import (docs/DECISIONS.md, \"follow: recoveries are not imported\")"
                }
                throw .append(error, batch: context)
            }
            if let commit = appended.commit { result.commits.append(commit) }
            for event in batch.events {
                switch event.kind {
                case .mandate: result.imported.mandates += 1
                case .verdict: result.imported.verdicts += 1
                case .write: result.imported.writes += 1
                }
            }
            result.logSize = appended.trailers.logSize
            result.logHead = appended.trailers.logHead
            result.conductFindings += appended.conductFindings
            published += batch.events.count
            progress(published, events.count)
        }
        return result
    }

    private func tipState() throws(FollowError) -> LedgerState {
        do {
            let repository = try Repository.open(options.ledger)
            guard let tip = try repository.referenceTarget(LedgerLayout.branch) else {
                throw FollowError.append(
                    AppendError(
                        source: options.ledger, rule: "ledger.empty",
                        reason: "no \(LedgerLayout.branch): run init first"), batch: "ledger")
            }
            return try LedgerState(repository: repository, tip: tip)
        } catch let error as FollowError {
            throw error
        } catch let error as AppendError {
            throw .append(error, batch: "ledger")
        } catch let error as GitError {
            throw .append(AppendError.git(error, source: options.ledger, record: nil), batch: "ledger")
        } catch {
            throw .unreadableStore("\(options.ledger): \(error)")
        }
    }
}
