public import LedgerFormat

/// The part of the replay state that is otherwise rebuilt from every receipted verdict in the ledger —
/// the evaluator's facts by binding, revocation effects, status attempts and manifests — kept in local
/// state beside a checkpoint (inside ``ReplayMaps``), so a run that continues from the checkpoint reads
/// only the new commits. Instants keep their nanoseconds, so a restored fact is the fact the replay computed.
public struct ReplaySnapshot: Sendable {
    public var facts: [String: [VerdictFact]]
    public var revocations: [DesignationRevocation.Effect]
    public var statusAttempts: [StatusAttempt]
    public var manifests: [AuthorityManifest]

    public init(
        facts: [String: [VerdictFact]], revocations: [DesignationRevocation.Effect], statusAttempts: [StatusAttempt],
        manifests: [AuthorityManifest]
    ) {
        self.facts = facts
        self.revocations = revocations
        self.statusAttempts = statusAttempts
        self.manifests = manifests
    }

    public init(of state: ReplayState) {
        facts = state.facts
        revocations = state.revocations
        statusAttempts = state.statusAttempts
        manifests = state.manifests
    }

    /// Puts the snapshot into `state`.
    func restore(into state: inout ReplayState) {
        state.facts = facts
        state.revocations = revocations
        state.statusAttempts = statusAttempts
        state.manifests = manifests
    }
}
