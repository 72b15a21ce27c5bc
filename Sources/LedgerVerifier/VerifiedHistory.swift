public import LedgerFormat
public import LedgerStore

/// A ledger that passed verification, as of its verified tip: what the gate and reconciliation code
/// accept (there is no public way to make one without verifying).
public final class VerifiedHistory {
    public let tip: ObjectID
    public let descriptor: LedgerDescriptor?
    /// Every binding's record (identity, last written bits, facts), as verification left it.
    public let bindingTable: BindingTable
    /// Received verdicts by device binding (the whole map, built on first use; ``facts(of:)`` for one).
    public private(set) lazy var facts: [WireString: [VerdictFact]] = {
        var all: [WireString: [VerdictFact]] = [:]
        bindingTable.forEach { binding, record in if !record.facts.isEmpty { all[binding] = record.facts } }
        return all
    }()
    /// Each binding's last successful write as of the tip (see ``lastWritten(at:)`` for earlier times).
    public private(set) lazy var lastWritten: [WireString: DeviceBits] = {
        var all: [WireString: DeviceBits] = [:]
        bindingTable.forEach { binding, record in if let bits = record.lastWritten { all[binding] = bits } }
        return all
    }()
    private let lastWriteTime: Instant?
    private let logSize: Int64
    private var writtenAt: [Instant: [WireString: DeviceBits]] = [:]
    /// Every binding the ledger names — by a mandate, a received verdict or a write — sorted (the binding
    /// table's keys: it holds a record for exactly those).
    public private(set) lazy var knownBindings: [WireString] = bindingTable.keys().sorted()
    public let revocations: [DesignationRevocation.Effect]
    /// The grants redeemed within the rules (`GrantRedemption`).
    public let redemptions: [GrantRedemption.Effect]
    /// The verified tip, read through the one read model (its record index is the one verification built).
    public let snapshot: LedgerSnapshot
    private var mandateIndex: (byUser: [WireString: [Mandate]], byBinding: [WireString: [Mandate]])?

    init(snapshot: LedgerSnapshot, state: ReplayState) {
        self.snapshot = snapshot
        tip = snapshot.tip
        descriptor = state.descriptor
        bindingTable = state.maps.bindings
        lastWriteTime = state.lastWriteTime
        logSize = state.logSize
        revocations = state.maps.revocations
        redemptions = state.maps.redemptions
    }

    // MARK: - Lookups at the verified tip

    public func verdict(_ ref: ContentAddress) -> Verdict? { try? snapshot.decodable(Verdict.self, ref) }
    public func mandate(_ ref: ContentAddress) -> Mandate? { try? snapshot.decodable(Mandate.self, ref) }
    public func manifest(_ hash: ContentAddress) -> AuthorityManifest? {
        try? snapshot.decodable(AuthorityManifest.self, hash)
    }

    /// Each binding's last successful write recorded at or before `time` — what the device held then,
    /// as far as the log knows. Read from the log when `time` is before the latest write.
    public func lastWritten(at time: Instant) -> [WireString: DeviceBits] {
        if let lastWriteTime, time >= lastWriteTime { return lastWritten }
        if let cached = writtenAt[time] { return cached }
        // The history was verified, so its log reads; an unreadable one answers as if empty.
        let bits = (try? snapshot.lastWrittenBits(upTo: logSize, recordedBy: time)) ?? [:]
        writtenAt[time] = bits
        return bits
    }

    /// `binding`'s last successful write recorded at or before `time`.
    public func lastWritten(of binding: WireString, at time: Instant) -> DeviceBits? {
        if let lastWriteTime, time >= lastWriteTime { return bindingTable[binding]?.lastWritten }
        return lastWritten(at: time)[binding]
    }

    public var lookup: GateEvaluator.Lookup {
        GateEvaluator.Lookup(
            verdict: { [unowned self] in self.verdict($0) }, mandate: { [unowned self] in self.mandate($0) },
            manifest: { [unowned self] in self.manifest($0) })
    }

    /// Every mandate at the tip, indexed by user key and by device binding (read once, on first use).
    private func index() -> (byUser: [WireString: [Mandate]], byBinding: [WireString: [Mandate]]) {
        if let mandateIndex { return mandateIndex }
        var byUser: [WireString: [Mandate]] = [:]
        var byBinding: [WireString: [Mandate]] = [:]
        for mandate in (try? snapshot.all(Mandate.self)) ?? [] {
            byUser[mandate.userKey, default: []].append(mandate)
            byBinding[mandate.deviceBinding, default: []].append(mandate)
        }
        mandateIndex = (byUser, byBinding)
        return (byUser, byBinding)
    }

    public func mandates(ofUser user: WireString) -> [Mandate] { index().byUser[user] ?? [] }
    public func mandates(onBinding binding: WireString) -> [Mandate] { index().byBinding[binding] ?? [] }

    /// Whether the ledger knows `binding`: a mandate names it, or a verdict or a write does.
    public func knows(binding: WireString) -> Bool {
        bindingTable[binding] != nil
    }

    /// The verdicts about `binding` received by the tip.
    public func facts(of binding: WireString) -> [VerdictFact] { bindingTable[binding]?.facts ?? [] }

    /// The verdicts that may fold on `binding`: its own and those a redeemed recovery moves into it.
    public func foldFacts(of binding: WireString) -> [VerdictFact] {
        GrantRedemption.sources(of: binding, redemptions).flatMap { facts(of: $0) }
    }

    /// The identities whose mandates count on `binding` at `time`, each with its first mandate's acceptance:
    /// mandates accepted by then, on the binding where the recoveries redeemed by then put them (F12 — a
    /// reinstalled app signs no new mandate; its grantee's mandate moved with the recovery). More than one
    /// is legitimate (a new holder, a reinstall under a new identity) but never silent: gate and reconcile
    /// show it.
    public func identities(onBinding binding: WireString, at time: Instant) -> [(user: WireString, acceptedAt: Instant)]
    {
        var first: [WireString: Instant] = [:]
        for source in GrantRedemption.sources(of: binding, redemptions) {
            for mandate in mandates(onBinding: source)
            where mandate.acceptedAt <= time && GrantRedemption.binding(of: mandate, at: time, redemptions) == binding {
                first[mandate.userKey] = min(first[mandate.userKey] ?? mandate.acceptedAt, mandate.acceptedAt)
            }
        }
        return first.map { ($0.key, $0.value) }.sorted { ($0.acceptedAt, $0.user) < ($1.acceptedAt, $1.user) }
    }

    /// The gate's input for a binding (or the binding an identity's newest mandate names).
    public func gateInput(binding: WireString, user: WireString?, appleBits: DeviceBits?, at time: Instant)
        -> GateEvaluator.Input
    {
        var input = GateEvaluator.Input(
            binding: binding, facts: foldFacts(of: binding),
            appleBits: appleBits ?? lastWritten(of: binding, at: time) ?? .clear,
            at: time)
        input.revocations = revocations
        input.redemptions = redemptions
        input.user = user
        if let user {
            input.userMandates = mandates(ofUser: user).filter {
                GrantRedemption.binding(of: $0, at: time, redemptions) == binding
            }
        }
        return input
    }
}
