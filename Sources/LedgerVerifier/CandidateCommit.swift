public import LedgerFormat
public import LedgerStore

/// The verifier's judgement of a commit that exists but is not published yet: the writer builds its
/// batch as the commit it would make (objects in memory, the branch unmoved) and asks this before it
/// writes anything (the writer plans, the policies judge).
///
/// It is the same `CommitLoader` and the same policy list `verify` runs, against the replay state at
/// the candidate's parent, replay included — so a batch `append` publishes is one `verify` accepts, and
/// a rule lives in one policy, never again in the writer.
public enum CandidateCommit {
    /// What the policies found in the candidate.
    public struct Judgement: Sendable {
        public let findings: [PolicyFailure]
        /// The candidate as the policies saw it: what advances the replay state once it is published
        /// (`ReplayState.apply(_:)`), in place in the writer's own copy.
        public let step: CommitStep

        /// Findings that refuse the batch: every integrity finding, and every conduct finding about a
        /// record the vendor chose to store (an invalid verdict is refused at intake, never stored).
        public var refusals: [PolicyFailure] { findings.filter { $0.kind == .integrity || $0.write == nil } }

        /// Conduct findings about writes: the backend made the call, so the log keeps it (nothing
        /// acknowledged is ever lost) and the finding is reported, as `verify` will report it.
        public var acceptedConduct: [PolicyFailure] { findings.filter { $0.kind == .conduct && $0.write != nil } }
    }

    /// The replay state at `commit` rebuilt from its tree and history, for a writer without state of its own.
    public static func rebuiltState(
        at commit: ObjectID, in repository: Repository, signer: Ed25519.PublicKey, now: Instant
    )
        throws -> ReplayState
    {
        var state = ReplayState(trustRoot: TrustRoot(keys: [signer]), now: now)
        var summary = VerificationSummary()
        try state.restore(&summary, at: commit, repository: repository, checkpoint: nil)
        return state
    }

    /// Judges `candidate` (one commit on top of `parent`, or a root when `parent` is nil).
    /// - Parameters:
    ///   - signer: the key the writer signs with; it must be an allowed signer at `parent` (for a root,
    ///     it is the trust the root is judged under).
    ///   - now: the verification time (the batch time: nothing may be dated after it).
    ///   - known: the replay state at `parent` when the caller has it (its state after the commit it judged
    ///     before, advanced by that ``Judgement/step``); otherwise it is rebuilt from `parent`'s tree.
    ///   - records: the records the caller keeps with `known` (`RecordCache.keep(_:)`), found without
    ///     reading them again.
    public static func judge(
        _ candidate: ObjectID, parent: ObjectID?, in repository: Repository, signer: Ed25519.PublicKey, now: Instant,
        known: ReplayState? = nil, records: RecordCache = RecordCache(),
        policies: [any LedgerPolicy] = StandardLedgerPolicy.policies
    ) throws -> Judgement {
        var state: ReplayState
        if let known, known.previous == parent {
            state = known
            state.now = now
        } else if let parent {
            state = try rebuiltState(at: parent, in: repository, signer: signer, now: now)
        } else {
            state = ReplayState(trustRoot: TrustRoot(keys: [signer]), now: now)
        }
        let loader = CommitLoader(repository: repository, clock: PhaseClock(), records: records)
        let step = try loader.load(candidate, index: state.commitsSeen, state: state)
        let findings = policies.flatMap { $0.evaluate(step, state: state) }
        return Judgement(findings: findings, step: step)
    }
}
