public import LedgerFormat
public import LedgerStore

#if canImport(Glibc)
    import Glibc
#endif

/// The auditor's own memory of one ledger: the remembered root of trust, the last verified tip (with
/// the totals an incremental run continues from), rewrites not yet acknowledged, an append-only
/// journal and the evidence files. It lives in the auditor's state folder, never in the repository:
/// nothing a repository carries is ever read as trust (docs/VERIFY.md, "The auditor's state").
///
/// Layout: `<root>/ledgers/<ledgerId>/<first commit>/` with `state.json`, `journal.jsonl` and
/// `evidence/`. `<root>` is `--state DIR`, else `$XDG_STATE_HOME/onym-ledger`, else
/// `~/.local/state/onym-ledger`.
public struct AuditorState: Sendable {
    /// What the state remembers between runs.
    public struct Remembered: Sendable {
        /// Fingerprints of the pinned root of trust.
        public var trust: [String]
        /// The last verified tip and its totals (nil until a run verified this history).
        public var checkpoint: Checkpoint?
        /// Histories seen that do not descend from the remembered tip, until `--forget`.
        public var rewrites: [Rewrite]
        /// First commits (hex) of other histories under the same ledger id that `--forget` acknowledged.
        public var acknowledged: [String] = []

        public init(trust: [String], checkpoint: Checkpoint? = nil, rewrites: [Rewrite] = []) {
            self.trust = trust
            self.checkpoint = checkpoint
            self.rewrites = rewrites
        }
    }

    /// A tip seen that does not descend from the remembered one.
    public struct Rewrite: Sendable, Equatable {
        public var detectedAt: Instant
        public var rememberedTip: ObjectID
        public var seenTip: ObjectID
        /// Evidence files (paths), for the report.
        public var evidence: [String]

        var json: JSONObject {
            JSONObject([
                ("detectedAt", .string(detectedAt.rfc3339)), ("rememberedTip", .string(rememberedTip.hex)),
                ("seenTip", .string(seenTip.hex)), ("evidence", .array(evidence.map { .string($0) })),
            ])
        }

        init(detectedAt: Instant, rememberedTip: ObjectID, seenTip: ObjectID, evidence: [String]) {
            self.detectedAt = detectedAt
            self.rememberedTip = rememberedTip
            self.seenTip = seenTip
            self.evidence = evidence
        }

        init(json: JSONValue) throws(LedgerFormatError) {
            guard let object = json.objectValue else {
                throw LedgerFormatError(.wrongType, "a rewrite is an object", path: "$.rewrites")
            }
            let reader = FieldReader(object)
            detectedAt = try reader.timestamp("detectedAt")
            guard let remembered = ObjectID(hexString: try reader.string("rememberedTip")),
                let seen = ObjectID(hexString: try reader.string("seenTip"))
            else { throw LedgerFormatError(.invalidHex, "not a commit id", path: "$.rewrites") }
            rememberedTip = remembered
            seenTip = seen
            evidence = try reader.stringArray("evidence")
        }
    }

    public struct StateError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public let root: String
    public let ledgerId: String
    public let firstCommit: ObjectID

    /// The folder for this ledger identity.
    public var folder: String { "\(root)/ledgers/\(Self.folderName(ledgerId))/\(firstCommit.hex)" }
    var statePath: String { folder + "/state.json" }
    var journalPath: String { folder + "/journal.jsonl" }
    /// The checkpoint's record index (``RecordIndex``: a sorted table and its delta), beside `state.json`.
    var indexPath: String { folder + "/records.table" }
    /// The checkpoint's replay maps (``ReplayMaps``: the small file, and the binding table and its delta).
    var mapsPaths: ReplayMaps.Paths { .init(small: folder + "/replay.state", bindings: folder + "/bindings.table") }
    /// The checkpoint's conduct findings (``ConductFindingsFile``), beside `state.json`.
    var conductPath: String { folder + "/conduct.json" }
    /// What versions before the sorted tables kept (never read again).
    var legacyIndexPath: String { folder + "/records.index" }
    public var evidenceFolder: String { folder + "/evidence" }

    public init(root: String, ledgerId: String, firstCommit: ObjectID) {
        self.root = root
        self.ledgerId = ledgerId
        self.firstCommit = firstCommit
    }

    /// `$XDG_STATE_HOME/onym-ledger`, else `$HOME/.local/state/onym-ledger` (XDG Base Directory).
    public static func defaultRoot(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/onym-ledger" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/state/onym-ledger"
    }

    /// A ledger id as one path element, one-to-one: ASCII letters, digits, `_` and `-` stay, every other byte
    /// of its UTF-8 is `%` and two uppercase hex digits (`onym:component:x` → `onym%3Acomponent%3Ax`). Two ids
    /// never share a folder, so a history under a look-alike id can never pass for another's (and the
    /// descriptor admits no look-alike ids at all: ``LedgerDescriptor/isLedgerId(_:)``).
    static func folderName(_ id: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var name = ""
        for byte in id.utf8 {
            let kept =
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            name += kept ? String(UnicodeScalar(byte)) : "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 15)])"
        }
        return name.isEmpty ? "%" : name
    }

    /// The folder versions before ``folderName(_:)`` used: the first 64 characters, anything but letters,
    /// digits, `.`, `_`, `-` replaced by `_` — which let two ids share a folder.
    static func legacyFolderName(_ id: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        let name = String(id.prefix(64).map { allowed.contains($0) ? $0 : "_" })
        return name.isEmpty || name.hasPrefix(".") ? "_" + name : name
    }

    /// Moves this ledger id's state from the folder an earlier version named it by, when that folder exists,
    /// the new one does not, and every history in it was remembered under exactly this id (so nothing another
    /// id wrote there is adopted).
    public func adoptLegacyFolder() {
        let legacy = "\(root)/ledgers/\(Self.legacyFolderName(ledgerId))"
        let current = "\(root)/ledgers/\(Self.folderName(ledgerId))"
        guard legacy != current, access(current, F_OK) != 0, access(legacy, F_OK) == 0 else { return }
        let everyStateIsOurs = Self.histories(in: legacy).allSatisfy { history in
            Self.stateObject(in: legacy, history.folder)?["ledgerId"]?.stringValue == ledgerId
        }
        if everyStateIsOurs { rename(legacy, current) }
    }

    /// The histories kept in the ledger-id folder `parent`: its folders named by a commit id (the history's
    /// first commit), in name order.
    private static func histories(in parent: String) -> [(firstCommit: ObjectID, folder: String)] {
        guard let directory = opendir(parent) else { return [] }
        defer { closedir(directory) }
        var found: [(firstCommit: ObjectID, folder: String)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let id = ObjectID(hexString: name) { found.append((id, name)) }
        }
        return found.sorted { $0.folder < $1.folder }
    }

    /// The `state.json` in the history folder `folder` of the ledger-id folder `parent`, parsed; nil when it
    /// is missing or does not parse.
    private static func stateObject(in parent: String, _ folder: String) -> JSONObject? {
        DurableFile.read("\(parent)/\(folder)/state.json")
            .flatMap { try? CanonicalJSON.parse($0, limits: .localState) }
    }

    // MARK: - Reading and writing

    /// The remembered state, or nil when this ledger identity was never verified here.
    public func load() throws(StateError) -> Remembered? {
        guard let bytes = DurableFile.read(statePath) else { return nil }
        do {
            let object = try CanonicalJSON.parse(bytes, limits: .localState)
            let reader = FieldReader(object)
            try reader.version("version")
            var remembered = Remembered(trust: try reader.stringArray("trust"))
            if let checkpoint = try reader.optionalObject("checkpoint") {
                var loaded = try Checkpoint(bytes: CanonicalJSON.encode(checkpoint.object))
                // A missing or stale index file only costs the next run a listing of the batch folders.
                loaded.records = RecordIndex.load(from: indexPath, tip: loaded.tip)
                loaded.maps = ReplayMaps.load(from: mapsPaths, tip: loaded.tip)
                loaded.conductFindings = ConductFindingsFile.load(from: conductPath, tip: loaded.tip)
                remembered.checkpoint = loaded
            }
            if case .array(let rewrites)? = object["rewrites"] {
                remembered.rewrites = try rewrites.map { (value: JSONValue) throws(LedgerFormatError) in
                    try Rewrite(json: value)
                }
            }
            remembered.acknowledged = try reader.has("acknowledged") ? reader.stringArray("acknowledged") : []
            return remembered
        } catch {
            throw StateError(description: "\(statePath): unreadable auditor state (\(error.reason))")
        }
    }

    /// Saves the state. `sideFilesCurrent`: the index and maps files already hold the checkpoint's tip (a run
    /// that found nothing new), so only `state.json` is written — not megabytes of unchanged local state.
    public func save(_ remembered: Remembered, sideFilesCurrent: Bool = false) throws(StateError) {
        var object = JSONObject([
            ("version", .integer(1)), ("ledgerId", .string(ledgerId)), ("firstCommit", .string(firstCommit.hex)),
            ("trust", .array(remembered.trust.map { .string($0) })),
            ("rewrites", .array(remembered.rewrites.map { .object($0.json) })),
            ("acknowledged", .array(remembered.acknowledged.map { .string($0) })),
        ])
        if let checkpoint = remembered.checkpoint { object.set("checkpoint", .object(checkpoint.json)) }
        try makeFolders(folder)
        do {
            // The index and the maps first: files naming a tip `state.json` does not (yet) name are ignored.
            if !sideFilesCurrent, let checkpoint = remembered.checkpoint, let records = checkpoint.records {
                try records.save(to: indexPath, tip: checkpoint.tip, durable: true)
                unlink(legacyIndexPath)
            }
            if !sideFilesCurrent, let checkpoint = remembered.checkpoint, let maps = checkpoint.maps {
                try maps.save(to: mapsPaths, tip: checkpoint.tip, durable: true)
            }
            if !sideFilesCurrent, let checkpoint = remembered.checkpoint, let findings = checkpoint.conductFindings {
                try ConductFindingsFile.save(findings, to: conductPath, tip: checkpoint.tip)
            }
            try DurableFile.write(CanonicalJSON.encode(object), to: statePath, mode: 0o600)
        } catch {
            throw StateError(description: error.description)
        }
    }

    /// Appends one event to the journal (one canonical JSON object a line, fsynced): the journal is
    /// never rewritten, so what it recorded — every verified tip, every rewrite, every `--forget` — stays.
    public func journal(_ event: JSONObject) throws(StateError) {
        try makeFolders(folder)
        let line = CanonicalJSON.encode(event) + [0x0A]
        let fd = open(journalPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StateError(description: "\(journalPath): cannot open (\(Self.errorText()))") }
        defer { close(fd) }
        let written = line.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == line.count, fsync(fd) == 0 else {
            throw StateError(description: "\(journalPath): cannot append (\(Self.errorText()))")
        }
    }

    /// The journal's events, oldest first (for reports and tests).
    public func journalEvents() -> [JSONObject] {
        guard let bytes = DurableFile.read(journalPath) else { return [] }
        return bytes.split(separator: 0x0A).compactMap { line -> JSONObject? in
            try? CanonicalJSON.parse(Array(line), limits: .localState)
        }
    }

    /// Writes an evidence file (never replacing one) and returns its path.
    public func saveEvidence(_ bytes: [UInt8], name: String) throws(StateError) -> String {
        try makeFolders(evidenceFolder)
        let path = evidenceFolder + "/" + name
        if access(path, F_OK) == 0 { return path }
        do {
            try DurableFile.write(bytes, to: path, mode: 0o600, exclusive: true)
        } catch {
            throw StateError(description: error.description)
        }
        return path
    }

    /// The verified tips remembered here under `ledgerId`, each with the first commit of its history (the
    /// folder that keeps it): where a walk back from a new tip may stop (``Verifier``). Only `state.json`
    /// is read; a folder whose file does not parse names no tip.
    public static func rememberedTips(root: String, ledgerId: String) -> [ObjectID: ObjectID] {
        let parent = "\(root)/ledgers/\(folderName(ledgerId))"
        var tips: [ObjectID: ObjectID] = [:]
        for history in histories(in: parent) {
            guard let state = stateObject(in: parent, history.folder), state["ledgerId"]?.stringValue == ledgerId,
                let tip = state["checkpoint"]?.objectValue?["tip"]?.stringValue.flatMap(ObjectID.init(hexString:))
            else { continue }
            tips[tip] = history.firstCommit
        }
        return tips
    }

    /// The first commits of other histories verified here under the same ledger id, with their
    /// remembered state (a history rewritten from its first commit on has another identity).
    public func otherHistories() -> [(firstCommit: ObjectID, state: AuditorState)] {
        Self.histories(in: "\(root)/ledgers/\(Self.folderName(ledgerId))").map(\.firstCommit)
            .filter { $0 != firstCommit }.map { ($0, AuditorState(root: root, ledgerId: ledgerId, firstCommit: $0)) }
    }

    // MARK: - Files

    private func makeFolders(_ path: String) throws(StateError) {
        do {
            try DurableFile.makeFolders(path, mode: 0o700)
        } catch {
            throw StateError(description: "cannot create the state folder: \(error.description)")
        }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
