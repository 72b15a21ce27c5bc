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
/// Three files, each naming the tip it holds: `onym-ledger-writer-state.json` — `{version, checkpoint}`,
/// the small part — `onym-ledger-writer-replay.state`, the replay maps (``ReplayMaps``: bindings,
/// identities, last written bits, facts, revocations, attempts, manifests, binary), and
/// `onym-ledger-writer-index`, the record index. Written when the appending process exits
/// (``ReplayStateCache``). A cache of the writer's own results: used only when all three name the current
/// tip, rebuilt when missing, stale or unreadable, written without fsync (a lost write only costs the next
/// append a rebuild), and never read by the verifier, which keeps its own.
enum WriterStateFile {
    static func statePath(_ gitDirectory: String) -> String { folder(gitDirectory) + "onym-ledger-writer-state.json" }
    static func mapsPath(_ gitDirectory: String) -> String { folder(gitDirectory) + "onym-ledger-writer-replay.state" }
    static func indexPath(_ gitDirectory: String) -> String { folder(gitDirectory) + "onym-ledger-writer-index" }

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
            let maps = DurableFile.read(mapsPath(directory)).flatMap({ ReplayMaps(fileBytes: $0, tip: tip) })
        else { return nil }
        checkpoint.maps = maps
        checkpoint.records = DurableFile.read(indexPath(directory)).flatMap { RecordIndex(fileBytes: $0, tip: tip) }
        return try? ReplayState.resumed(
            at: tip, from: checkpoint, repository: repository, trustRoot: TrustRoot(keys: [signer]), now: now)
    }

    /// Saves the state after `tip`: the maps and the index first, the small file naming them last.
    static func save(_ state: ReplayState, at tip: ObjectID, gitDirectory: String) {
        let checkpoint = Checkpoint(of: state, tip: tip, trust: [], summary: VerificationSummary())
        if let maps = checkpoint.maps {
            try? DurableFile.write(maps.fileBytes(tip: tip), to: mapsPath(gitDirectory), durable: false)
        }
        try? DurableFile.write(state.records.fileBytes(tip: tip), to: indexPath(gitDirectory), durable: false)
        let object = JSONObject([("version", .integer(2)), ("checkpoint", .object(checkpoint.json))])
        try? DurableFile.write(CanonicalJSON.encode(object), to: statePath(gitDirectory), durable: false)
        // The JSON replay snapshot versions before the binary maps kept (megabytes, never read again).
        unlink(folder(gitDirectory) + "onym-ledger-writer-replay.json")
    }
}
