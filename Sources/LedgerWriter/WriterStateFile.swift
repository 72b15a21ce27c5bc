import LedgerFormat
import LedgerStore
import LedgerVerifier

/// The writer's own checkpoint of the replay state at the tip it last published, kept in the ledger's
/// git directory: the next append — usually another process — is judged from it instead of rebuilding
/// the replay state from the whole tree (which reads every receipted verdict, every mandate and every
/// log entry: seconds at 100 000 entries).
///
/// Two files: `onym-ledger-writer-state.json` — `{version, checkpoint, replayFrom}`, the small part,
/// written after every publish — and `onym-ledger-writer-replay.json` — `{version, tip, replay}`, the
/// evaluator's facts, revocations, attempts and manifests, written only by a batch that adds to them
/// (`replayFrom` names the commit it was written at). Written when the appending process exits
/// (``ReplayStateCache``). A cache of the writer's own results: used only when it names the current tip,
/// rebuilt when missing, stale or unreadable, written without fsync (a lost write only costs the next
/// append a rebuild), and never read by the verifier, which keeps its own.
enum WriterStateFile {
    struct Loaded {
        let state: ReplayState
        /// The commit at which the replay file was written (its content is still current).
        let replayFrom: ObjectID
    }

    static func statePath(_ gitDirectory: String) -> String { folder(gitDirectory) + "onym-ledger-writer-state.json" }
    static func replayPath(_ gitDirectory: String) -> String { folder(gitDirectory) + "onym-ledger-writer-replay.json" }
    static func indexPath(_ gitDirectory: String) -> String { folder(gitDirectory) + "onym-ledger-writer-index" }

    private static func folder(_ gitDirectory: String) -> String {
        gitDirectory.hasSuffix("/") ? gitDirectory : gitDirectory + "/"
    }

    /// The replay state at `tip`, if the files hold it.
    static func load(at tip: ObjectID, in repository: Repository, signer: Ed25519.PublicKey, now: Instant)
        -> Loaded?
    {
        let directory = repository.gitDirectory
        guard let stateBytes = DurableFile.read(statePath(directory)),
            let stateObject = try? CanonicalJSON.parse(stateBytes, limits: .localState),
            case .object(let checkpointObject)? = stateObject["checkpoint"],
            case .string(let replayFromText)? = stateObject["replayFrom"],
            let replayFrom = ObjectID(hexString: replayFromText),
            var checkpoint = try? Checkpoint(json: checkpointObject), checkpoint.tip == tip,
            let replayBytes = DurableFile.read(replayPath(directory)),
            let replayObject = try? CanonicalJSON.parse(replayBytes, limits: .localState),
            replayObject["tip"] == .string(replayFrom.hex), case .object(let snapshot)? = replayObject["replay"],
            let replay = try? ReplaySnapshot(json: snapshot)
        else { return nil }
        checkpoint.replay = replay
        checkpoint.records = DurableFile.read(indexPath(directory)).flatMap { RecordIndex(fileBytes: $0, tip: tip) }
        guard
            let state = try? ReplayState.resumed(
                at: tip, from: checkpoint, repository: repository, trustRoot: TrustRoot(keys: [signer]), now: now)
        else { return nil }
        return Loaded(state: state, replayFrom: replayFrom)
    }

    /// Saves the state after `tip`; the replay file only when `replayFrom` (the commit whose replay file
    /// still holds this state's replay part) is nil. Returns the commit the replay file now belongs to.
    @discardableResult
    static func save(_ state: ReplayState, at tip: ObjectID, replayFrom: ObjectID?, gitDirectory: String) -> ObjectID {
        var checkpoint = Checkpoint(of: state, tip: tip, trust: [], summary: VerificationSummary())
        let replay = checkpoint.replay
        checkpoint.replay = nil
        let from = replayFrom ?? tip
        if replayFrom == nil, let replay {
            let object = JSONObject([
                ("version", .integer(1)), ("tip", .string(tip.hex)), ("replay", .object(replay.json)),
            ])
            try? DurableFile.write(CanonicalJSON.encode(object), to: replayPath(gitDirectory), durable: false)
        }
        try? DurableFile.write(state.records.fileBytes(tip: tip), to: indexPath(gitDirectory), durable: false)
        let object = JSONObject([
            ("version", .integer(1)), ("checkpoint", .object(checkpoint.json)), ("replayFrom", .string(from.hex)),
        ])
        try? DurableFile.write(CanonicalJSON.encode(object), to: statePath(gitDirectory), durable: false)
        return from
    }

    /// Whether `after` adds to the replay part of `before` (facts, revocations, attempts, manifests only
    /// grow: equal counts mean equal content).
    static func replayChanged(from before: ReplayState, to after: ReplayState) -> Bool {
        func counts(_ state: ReplayState) -> [Int] {
            [
                state.facts.values.reduce(0) { $0 + $1.count }, state.revocations.count, state.statusAttempts.count,
                state.manifests.count,
            ]
        }
        return counts(before) != counts(after)
    }
}
