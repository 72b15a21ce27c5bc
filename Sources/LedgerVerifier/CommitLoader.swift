import Dispatch
import LedgerFormat
import LedgerStore

/// Loads one commit into a ``CommitStep`` in two parts: ``read(_:)`` — git reads on the calling thread
/// (a repository handle is single-threaded), then parsing, canonical checks and hashing over both cores —
/// needs nothing from earlier commits, so the verifier runs it a commit ahead on a thread of its own
/// (``CommitReadAhead``); ``finish(_:index:state:)`` finds referenced records through the replay state and
/// checks the signatures that need them.
struct CommitLoader {
    /// Most files one commit may add before the rest is not read (``Limits``-style guard on absurd counts).
    static let maxFilesPerCommit = 200_000
    /// Most entries one tree may hold (fan-out folders hold ~150 at 10 million records).
    static let maxTreeEntries = 10_000
    /// Most bytes of one tree object (10 000 entries of a ledger's names fit in well under 1 MiB).
    static let maxTreeBytes = 1 << 20
    /// Largest parent-side tree read: a parent's trees were bounded when they were new (``maxTreeBytes``),
    /// but a ledger verified from a base commit may hold any; this bound keeps a hostile one finite.
    static let maxOldTreeBytes = 64 << 20
    /// Deepest folder nesting read: the whitelist's deepest path (`batches/<7>/<10>/<kind>/<a>/<hex>.json`)
    /// is 5 folders deep; anything deeper is refused without being walked, so depth costs nothing.
    static let maxTreeDepth = 5

    let repository: Repository
    let clock: PhaseClock
    /// Records from earlier commits, by content address: they never change (append-only), so one read
    /// serves every later verdict that names them.
    let lookup: RecordLookup
    /// The trees the last commits read (``read(_:)``): the next commit's parent side.
    let trees = KeptTrees()

    /// - Parameter records: the records kept for lookups; a writer shares one from batch to batch.
    init(repository: Repository, clock: PhaseClock, records: RecordCache = RecordCache()) {
        self.repository = repository
        self.clock = clock
        lookup = RecordLookup(repository: repository, tree: nil, cache: records)
    }

    /// What a commit's git reads and its state-free checks give — the changed paths, the added files
    /// decoded and hashed, the commit's signature checked, the log leaves it adds — before any policy:
    /// computed for commit N+1 while commit N is judged (``CommitReadAhead``).
    struct Read: Sendable {
        let commit: CommitInfo
        let parentTree: ObjectID?
        let changes: [PathChange]
        let anomalies: [GitAnomaly]
        let files: [LoadedFile]
        let signature: CommitSignature
        let leafHashes: [Merkle.Hash]
    }

    /// Reads and checks one commit: ``read(_:)`` then ``finish(_:index:state:)``.
    func load(_ id: ObjectID, index: Int, state: ReplayState) throws(GitError) -> CommitStep {
        try finish(try read(id), index: index, state: state)
    }

    /// Everything about commit `id` that does not depend on the commits before it.
    func read(_ id: ObjectID) throws(GitError) -> Read {
        let commit = try repository.commit(id)
        let parentTree = try commit.parents.first.map { (parent: ObjectID) throws(GitError) in
            try repository.commit(parent).tree
        }
        var walk = TreeWalk()
        trees.turn()
        try collectChanges(old: parentTree, new: commit.tree, prefix: "", depth: 0, into: &walk)
        var changes = walk.changes
        for index in changes.indices where changes[index].objectKind == .blob {
            changes[index].located = LedgerLayout.locate(changes[index].path)
        }
        clock.lap("load: tree diff")

        // Read the added whitelisted files within limits, and the replaced ones (a rotated allowed_signers,
        // the checkpoint, a witness's newer cosignature), which meet every rule an added file meets.
        var pending: [(String, LedgerLayout.PathMeaning, [UInt8])] = []
        var locations: [(batch: Int64?, blob: ObjectID)] = []
        var replacedCosignatures: [Int: [UInt8]] = [:]
        var replacedPaths: Set<String> = []
        for index in changes.indices where changes[index].objectKind == .blob {
            let change = changes[index]
            guard let blob = change.id else { continue }
            guard change.mode == 0o100644,
                change.kind == .added || (change.kind == .modified && LedgerLog.isReplaceable(change.path)),
                let located = change.located, pending.count < Self.maxFilesPerCommit
            else {
                // Not read: its size alone, from the object's header (RecordLimitsPolicy reports an oversized one).
                changes[index].size = try repository.blobSize(blob)
                continue
            }
            let bytes: [UInt8]
            switch try repository.readBlob(blob, within: Limits.maxRecordBytes) {
            case .tooLarge(let size):
                changes[index].size = size
                continue
            case .bytes(let read):
                changes[index].size = read.count
                bytes = read
            }
            if change.kind == .modified, case .cosignature = located.meaning, let parentTree,
                let replaced = try repository.entry(at: change.path, inTree: parentTree)
            {
                // What a replaced cosignature is compared with: the one its parent stored (verified then).
                replacedCosignatures[pending.count] = try repository.readBlob(replaced.id, limit: Limits.maxRecordBytes)
            }
            if change.kind == .modified { replacedPaths.insert(change.path) }
            pending.append((change.path, located.meaning, bytes))
            locations.append((located.batch, blob))
        }
        clock.lap("load: read blobs")
        let files = Self.decodeInParallel(pending)
        for index in files.indices { (files[index].batch, files[index].blob) = locations[index] }
        for (index, bytes) in replacedCosignatures { files[index].replacedBytes = bytes }
        clock.lap("load: decode (parallel)")

        let signature: CommitSignature
        switch CommitSignatureSplit.split(try repository.rawCommit(id, limit: CommitChain.maxCommitBytes)) {
        case .signed(let text, let signedData): signature = Self.parseSignature(text, signedData: signedData)
        case .unsigned: signature = .missing
        case .malformed: signature = .malformed("a gpgsig header cut off before its line end")
        }
        let leafHashes = LedgerLog.entries(of: files.map { ($0.path, $0.sha256) }, replaced: replacedPaths).map {
            Merkle.leafHash($0)
        }
        clock.lap("load: commit signature, log leaves")
        return Read(
            commit: commit, parentTree: parentTree, changes: changes, anomalies: walk.anomalies, files: files,
            signature: signature, leafHashes: leafHashes)
    }

    /// The step the policies judge: `read` with the records its files refer to found (in this commit or
    /// before it, through `state`'s index) and the signatures that need them checked.
    func finish(_ read: Read, index: Int, state: ReplayState) throws(GitError) -> CommitStep {
        var files = read.files
        try resolveReferences(&files, parentTree: read.parentTree, index: state.records)
        clock.lap("load: resolve references")
        let descriptor = files.lazy.compactMap(\.descriptor).first ?? state.descriptor
        Self.checkSignaturesInParallel(&files, descriptor: descriptor)
        clock.lap("load: signatures (parallel)")
        ReplayState.noteExecutedFacts(files)
        clock.lap("load: executed verdicts")
        var step = CommitStep(
            index: index, commit: read.commit, parentTree: read.parentTree, signature: read.signature,
            changes: read.changes, files: files, trailers: LedgerTrailers(message: read.commit.message),
            anomalies: read.anomalies)
        step.leafHashes = read.leafHashes
        return step
    }

    /// Keeps the records a step added to the index (`ReplayState.apply(_:)`) at hand for later commits'
    /// references: a verdict names a mandate an earlier commit stored, which is then found without reading
    /// and decoding it again.
    func keep(_ records: [any StoredRecord]) {
        lookup.cache.keep(records)
    }

    // MARK: - Tree diff with modes, sizes and empty folders

    /// What the walk of a commit's new trees found: the changed paths, and objects refused unread.
    struct TreeWalk {
        var changes: [PathChange] = []
        var anomalies: [GitAnomaly] = []
        var entriesSeen = 0
    }

    /// Merge-joins the old and new trees, reading only trees that changed. Every new tree is checked in
    /// its raw form first (`CanonicalTree`), and its size, entry count and depth are bounded before
    /// anything below it is read; the join then runs on the bytes read (`RawTree`), the old side most
    /// often kept from the commit before (`KeptTrees`).
    private func collectChanges(old: ObjectID?, new: ObjectID?, prefix: String, depth: Int, into walk: inout TreeWalk)
        throws(GitError)
    {
        if old == new { return }
        var newTree: RawTree?
        if let new {
            let folder = prefix.isEmpty ? "/" : prefix
            guard depth <= Self.maxTreeDepth else {
                walk.anomalies.append(
                    GitAnomaly(path: folder, reason: "folders nested deeper than \(Self.maxTreeDepth)"))
                return
            }
            let read: [UInt8]?
            if let kept = trees.tree(new) {
                read = kept.bytes
            } else {
                read = try repository.rawTree(new, limit: Self.maxTreeBytes)
            }
            guard let raw = read else {
                walk.anomalies.append(
                    GitAnomaly(path: folder, reason: "a folder object over \(Self.maxTreeBytes) bytes (or not a tree)"))
                return
            }
            switch CanonicalTree.parse(raw) {
            case .failure(let violation):
                walk.anomalies.append(GitAnomaly(path: folder, reason: "a non-canonical tree: \(violation.reason)"))
                return
            case .success(let entries):
                walk.entriesSeen += entries.count
                guard entries.count <= Self.maxTreeEntries else {
                    walk.changes.append(
                        PathChange(
                            kind: .added, path: folder, mode: 0o040000, objectKind: .tree, isEmptyTree: false,
                            size: entries.count))
                    return
                }
                guard walk.entriesSeen <= Self.maxFilesPerCommit else {
                    walk.anomalies.append(
                        GitAnomaly(
                            path: folder,
                            reason:
                                "the commit changes more than \(Self.maxFilesPerCommit) entries; the rest is not read"))
                    return
                }
                newTree = RawTree(bytes: raw, entries: entries)
                trees.keep(new, newTree!)
            }
        }
        var oldTree: RawTree?
        if let old { oldTree = try readOldTree(old) }
        for (previous, entry) in RawTree.changes(old: oldTree, new: newTree) {
            guard let entry else {
                let previous = previous!
                let path = prefix + previous.name
                if previous.kind == .tree {
                    try collectChanges(old: previous.id, new: nil, prefix: path + "/", depth: depth + 1, into: &walk)
                } else {
                    walk.changes.append(
                        PathChange(
                            kind: .deleted, path: path, mode: previous.mode, objectKind: previous.kind,
                            isEmptyTree: false, size: nil))
                }
                continue
            }
            let path = prefix + entry.name
            if entry.kind == .tree && entry.mode == 0o040000 && (previous == nil || previous?.kind == .tree) {
                if entry.id == ObjectID.emptyTree {
                    walk.changes.append(
                        PathChange(
                            kind: .added, path: path, mode: entry.mode, objectKind: .tree, isEmptyTree: true, size: nil)
                    )
                }
                try collectChanges(old: previous?.id, new: entry.id, prefix: path + "/", depth: depth + 1, into: &walk)
                continue
            }
            // A blob's size is read with the blob (`read(_:)`), from the same lookup.
            walk.changes.append(
                PathChange(
                    kind: previous == nil ? .added : .modified, path: path, mode: entry.mode,
                    objectKind: entry.kind, isEmptyTree: false, size: nil, id: entry.id))
            if let previous, previous.kind == .tree {
                try collectChanges(old: previous.id, new: nil, prefix: path + "/", depth: depth + 1, into: &walk)
            }
        }
    }

    /// The parent's side of a folder: kept from the commit before, or read. It was judged when a commit
    /// added it, so any well-formed tree is read; one that is not is an error, as libgit2's parser makes it.
    private func readOldTree(_ id: ObjectID) throws(GitError) -> RawTree {
        if let kept = trees.tree(id) { return kept }
        guard let raw = try repository.rawTree(id, limit: Self.maxOldTreeBytes), let tree = RawTree(reading: raw) else {
            throw GitError.fail("tree \(id.short) of the parent commit cannot be read as a tree")
        }
        return tree
    }

    // MARK: - Decoding (parallel)

    static func decode(_ path: String, _ meaning: LedgerLayout.PathMeaning, _ bytes: [UInt8]) -> LoadedFile {
        func result(_ body: () throws(LedgerFormatError) -> FileContent) -> Result<FileContent, LedgerFormatError> {
            do throws(LedgerFormatError) { return .success(try body()) } catch { return .failure(error) }
        }
        switch meaning {
        case .allowedSigners:
            // Any form of the grammar docs/FORMAT.md states (the decoder is its rule), not only the writer's.
            return LoadedFile(
                path: path, meaning: meaning, bytes: bytes, isCanonical: true,
                content: result { () throws(LedgerFormatError) -> FileContent in
                    .allowedSigners(try AllowedSigners(text: String(decoding: bytes, as: UTF8.self)))
                })
        case .manifestSignature:
            return LoadedFile(
                path: path, meaning: meaning, bytes: bytes, isCanonical: true,
                content: .success(.manifestSignature(bytes)))
        case .checkpoint, .cosignature:
            return LoadedFile(
                path: path, meaning: meaning, bytes: bytes, isCanonical: true,
                content: result { () throws(LedgerFormatError) -> FileContent in
                    do throws(SignedNote.ParseError) {
                        let note = try SignedNote(parsing: String(decoding: bytes, as: UTF8.self))
                        return meaning == .checkpoint ? .checkpoint(note) : .cosignature(note)
                    } catch {
                        throw LedgerFormatError(.invalidValue, "not a C2SP signed note: \(error.description)")
                    }
                })
        case .record(let kind, _) where kind == AuthorityManifest.self:
            // Exact published bytes: hashed and stored as they are, never required to be canonical.
            return LoadedFile(
                path: path, meaning: meaning, bytes: bytes, isCanonical: true,
                content: result { () throws(LedgerFormatError) -> FileContent in
                    .record(try AuthorityManifest(rawBytes: bytes))
                })
        default:
            break
        }
        let object: JSONObject
        let recognized: CanonicalEncoding?
        do {
            (object, recognized) = try CanonicalJSON.parseNotingCanonicalForm(bytes)
        } catch {
            return LoadedFile(path: path, meaning: meaning, bytes: bytes, isCanonical: false, content: .failure(error))
        }
        // A file the parser saw to be canonical is its own encoding; any other is encoded, and the encoder's
        // bytes decide.
        let encoding = recognized ?? CanonicalEncoding(of: object)
        let canonical = recognized != nil || encoding.isIdentical(to: bytes)
        let content = result { () throws(LedgerFormatError) -> FileContent in
            switch meaning {
            case .descriptor: return .descriptor(try LedgerDescriptor(json: object))
            case .record(let kind, _):
                return .record(try kind.init(storedBytes: bytes, json: object, encoding: encoding))
            case .logEntry: return .entry(try WriteLogEntry(json: object))
            default: preconditionFailure("handled above")
            }
        }
        return LoadedFile(path: path, meaning: meaning, bytes: bytes, isCanonical: canonical, content: content)
    }

    static func decodeInParallel(_ pending: [(String, LedgerLayout.PathMeaning, [UInt8])]) -> [LoadedFile] {
        parallelMap(pending) {
            let file = decode($0.0, $0.1, $0.2)
            file.sha256 = SHA256.hash($0.2)
            return file
        }
    }

    // MARK: - References (git, sequential)

    /// Finds, for each file, the records its kind's declaration names (``RecordDeclaration/references``):
    /// in this commit, or (unless the reference is to the same commit only) earlier, through one lookup.
    private func resolveReferences(_ files: inout [LoadedFile], parentTree: ObjectID?, index: RecordIndex)
        throws(GitError)
    {
        let inCommit = Self.recordsByKey(files)
        lookup.tree = parentTree
        for file in files {
            guard let subject = file.declaration else { continue }
            file.checks.references = try Self.references(of: subject, inCommit: inCommit) {
                (reference, address) throws(GitError) in
                try lookup.decodable(reference.target, address, index: index)
            }
        }
    }

    /// The records the commit's files hold, by kind and address.
    static func recordsByKey(_ files: [LoadedFile]) -> [RecordIndex.Key: any StoredRecord] {
        var records: [RecordIndex.Key: any StoredRecord] = [:]
        for file in files {
            if let record = file.storedRecord { records[RecordIndex.Key(type(of: record), record.address)] = record }
        }
        return records
    }

    /// The records `subject`'s declaration names (``RecordDeclaration/references``), in the declared order
    /// (a later reference may name addresses an earlier one found): each looked for in the commit
    /// (`inCommit`, ``recordsByKey(_:)``), then — unless the reference is to the same commit only — with
    /// `earlier`, in the commits before it.
    static func references<Failure: Error>(
        of subject: any RecordDeclaration, inCommit: [RecordIndex.Key: any StoredRecord],
        earlier: (RecordReference, ContentAddress) throws(Failure) -> (any StoredRecord)?
    ) throws(Failure) -> ResolvedReferences {
        var found = ResolvedReferences()
        for reference in type(of: subject).references {
            for address in reference.addresses(subject, found) {
                let record =
                    if let inThisCommit = inCommit[RecordIndex.Key(reference.target, address)] {
                        inThisCommit
                    } else if reference.scope == .ledger {
                        try earlier(reference, address)
                    } else {
                        nil as (any StoredRecord)?
                    }
                if let record { found.add(record, at: address) }
            }
        }
        return found
    }

    // MARK: - Signatures (parallel)

    /// Checks each file's declared signatures (``RecordDeclaration/signatures``) with the keys they name.
    static func checkSignaturesInParallel(_ files: inout [LoadedFile], descriptor: LedgerDescriptor?) {
        let keys = LedgerKeys(descriptor: descriptor)
        files = parallelMap(files) { file in
            guard let subject = file.declaration else { return file }
            // The verifications the reading thread made ahead are not made again (`SignatureForesight`).
            Ed25519.Verifications.$current.withValue(file.verifications) {
                for rule in type(of: subject).signatures {
                    guard let status = rule.check(subject, references: file.checks.references, keys: keys) else {
                        continue
                    }
                    file.checks.signatures[rule.role] = status
                    if status != .missing { file.checks.signaturesChecked += 1 }
                }
            }
            return file
        }
    }

    static func parseSignature(_ text: String, signedData: [UInt8]) -> CommitSignature {
        let armorCount = occurrences(of: "-----BEGIN ", in: text)
        guard armorCount == 1 else {
            return .malformed("\(armorCount) signature blocks in gpgsig; exactly one is allowed")
        }
        do {
            let parsed = try SSHSignature.parse(armored: text)
            return .parsed(parsed, signedData: signedData, isValid: parsed.isValid(for: signedData, namespace: "git"))
        } catch {
            return .malformed(error.reason)
        }
    }
}

/// How many times `needle` occurs in `text` (non-overlapping).
func occurrences(of needle: String, in text: String) -> Int {
    let haystack = Array(text.utf8)
    let pattern = Array(needle.utf8)
    guard !pattern.isEmpty, haystack.count >= pattern.count else { return 0 }
    var count = 0
    var index = 0
    while index <= haystack.count - pattern.count {
        if haystack[index..<index + pattern.count].elementsEqual(pattern) {
            count += 1
            index += pattern.count
        } else {
            index += 1
        }
    }
    return count
}
