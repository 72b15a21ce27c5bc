import LedgerFormat
import LedgerStore

/// What the thread that reads commits ahead knows of the keys record signatures are checked against — the
/// last descriptor and the manifests it has read — and the check it makes with them: each record's declared
/// signatures, verified on that thread before the judging thread needs them (docs/DECISIONS.md, "Record
/// signatures are checked ahead, on the reading thread").
///
/// Every verification made is kept with its file (`LoadedFile.verifications`), by the key, signature and
/// message it was made over; the judging thread checks the signatures again with the keys the replay state
/// gives, and each verification it finds kept is not made again (``Ed25519/Verifications``). What this
/// thread knows is a guess — a commit the judging thread refuses may still have taught it a descriptor or a
/// manifest — and a wrong guess is only a verification the judging thread makes itself.
final class SignatureForesight {
    /// Most manifests remembered, and most bytes of them (a ledger holds a few; past either, later ones are
    /// not learnt, and the signatures that need them are verified on the judging thread).
    static let maxManifests = 4096
    static let maxManifestBytes = 16 << 20

    private var descriptor: LedgerDescriptor?
    private var manifests: [ContentAddress: AuthorityManifest] = [:]
    private var manifestBytes = 0
    /// The last manifest read of each authority: the guess for a record whose manifest is reached through
    /// records this thread does not keep (a verdict's, through its mandate: ``SignatureRule/manifestAuthority``).
    private var latestManifests: [WireString: AuthorityManifest] = [:]

    /// Starting from `descriptor`: the one in force at the commit before the first read (nil at the root).
    init(descriptor: LedgerDescriptor?) {
        self.descriptor = descriptor
    }

    /// Learns a commit's descriptor and manifests (every commit read, in order, whether its signatures are
    /// checked ahead or not).
    func learn(_ files: [LoadedFile]) {
        for file in files {
            if let value = file.descriptor {
                descriptor = value
            } else if let manifest = file.manifest, manifests.count < Self.maxManifests,
                manifestBytes + manifest.rawBytes.count <= Self.maxManifestBytes
            {
                manifests[manifest.address] = manifest
                manifestBytes += manifest.rawBytes.count
                latestManifests[manifest.componentId] = manifest
            }
        }
    }

    /// Checks every file's declared signatures with what this thread knows, over both cores, keeping each
    /// verification with its file; the files left once `stopping` says so are not checked.
    func checkAhead(_ files: [LoadedFile], stopping: @Sendable () -> Bool = { false }) {
        let keys = LedgerKeys(descriptor: descriptor)
        let (manifests, latestManifests) = (manifests, latestManifests)
        let inCommit = CommitLoader.recordsByKey(files)
        _ = parallelMap(files) { file in
            guard let subject = file.declaration, !type(of: subject).signatures.isEmpty, !stopping() else { return }
            let references = CommitLoader.references(of: subject, inCommit: inCommit) { reference, address in
                reference.target.code == AuthorityManifest.code ? manifests[address] : nil
            }
            let verifications = Ed25519.Verifications()
            Ed25519.Verifications.$current.withValue(verifications) {
                for rule in type(of: subject).signatures {
                    var guessed = references
                    if references.first(AuthorityManifest.self) == nil,
                        let manifest = rule.manifestAuthority?(subject).flatMap({ latestManifests[$0] })
                    {
                        guessed.add(manifest, at: manifest.address)
                    }
                    _ = rule.check(subject, references: guessed, keys: keys)
                }
            }
            file.verifications = verifications
        }
    }
}
