import LedgerFormat
import LedgerStore
import LedgerVerifier

#if canImport(Glibc)
    import Glibc
#endif

/// The writer's own checkpoint of the replay state at the tip it last published, kept in the ledger's
/// git directory: the next append — usually another process — is judged from it instead of rebuilding
/// the replay state from the whole tree (which reads every receipted verdict, every mandate and every
/// log entry: seconds at 100 000 entries).
///
/// Files each naming the tip they hold: `onym-ledger-writer-state.json` — `{version, checkpoint}`, the
/// small part — the replay maps (``ReplayMaps``: `onym-ledger-writer-replay.state` for the shared
/// identities, revocations, attempts and manifests, `onym-ledger-writer-bindings.table` and its `.delta` for
/// every binding's record), and the record index (`onym-ledger-writer-records.table` and its `.delta`).
/// Written when an ``Appender`` closes. A cache of the writer's own results: used
/// only when they all name the current tip, rebuilt when missing, stale or unreadable, written without fsync
/// (a lost write only costs the next append a rebuild), and never read by the verifier, which keeps its own.
enum WriterStateFile {
    static func statePath(_ gitDirectory: String) -> String { folder(gitDirectory) + "onym-ledger-writer-state.json" }
    static func mapsPaths(_ gitDirectory: String) -> ReplayMaps.Paths {
        .init(
            small: folder(gitDirectory) + "onym-ledger-writer-replay.state",
            bindings: folder(gitDirectory) + "onym-ledger-writer-bindings.table")
    }
    static func indexPath(_ gitDirectory: String) -> String {
        folder(gitDirectory) + "onym-ledger-writer-records.table"
    }

    private static func folder(_ gitDirectory: String) -> String {
        gitDirectory.hasSuffix("/") ? gitDirectory : gitDirectory + "/"
    }

    /// The replay state at `tip`, if the files hold it.
    static func load(at tip: ObjectID, in repository: Repository, signer: Ed25519.PublicKey, now: Instant)
        -> ReplayState?
    {
        let directory = repository.gitDirectory
        guard let stateBytes = DurableFile.read(statePath(directory)),
            let stateObject = try? CanonicalJSON.parse(stateBytes, limits: .localState),
            stateObject["version"] == .integer(2),
            case .object(let checkpointObject)? = stateObject["checkpoint"],
            var checkpoint = try? Checkpoint(json: checkpointObject), checkpoint.tip == tip,
            let maps = ReplayMaps.load(from: mapsPaths(directory), tip: tip)
        else { return nil }
        checkpoint.maps = maps
        checkpoint.records = RecordIndex.load(from: indexPath(directory), tip: tip)
        return try? ReplayState.resumed(
            at: tip, from: checkpoint, repository: repository, trustRoot: TrustRoot(keys: [signer]), now: now)
    }

    /// Saves the state after `tip`: the maps and the index first, the small file naming them last.
    static func save(_ state: ReplayState, at tip: ObjectID, gitDirectory: String) {
        let checkpoint = Checkpoint(of: state, tip: tip, trust: [], summary: VerificationSummary())
        try? checkpoint.maps?.save(to: mapsPaths(gitDirectory), tip: tip, durable: false)
        try? state.records.save(to: indexPath(gitDirectory), tip: tip, durable: false)
        let object = JSONObject([("version", .integer(2)), ("checkpoint", .object(checkpoint.json))])
        try? DurableFile.write(CanonicalJSON.encode(object), to: statePath(gitDirectory), durable: false)
        // What versions before the sorted tables kept (megabytes, never read again).
        unlink(folder(gitDirectory) + "onym-ledger-writer-replay.json")
        unlink(folder(gitDirectory) + "onym-ledger-writer-index")
    }
}
