import Foundation
import LedgerTestSupport

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier
@testable import LedgerWriter

/// Rewrites a ledger's git history the way an attacker (or a buggy writer) could: raw commits with
/// any headers, signatures and trees, then a force-push. Used only to build the tamper corpus.
final class Surgeon {
    enum Signing {
        case key(Ed25519.PrivateKey)
        case none
        case namespace(String, Ed25519.PrivateKey)
        /// Two `gpgsig` headers.
        case twoHeaders(Ed25519.PrivateKey, Ed25519.PrivateKey)
        /// Two armored signatures inside one `gpgsig` header.
        case twoArmors(Ed25519.PrivateKey, Ed25519.PrivateKey)
        /// A valid signature with one byte of the signature flipped.
        case corrupted(Ed25519.PrivateKey)
        /// The signature another commit carries.
        case copied(String)
    }

    let repository: Repository
    /// Whether ``append`` and ``rewrite`` give each new commit the checkpoint its log needs (signed by
    /// ``logKey``), so only the rule under test fails; attacks on the checkpoint turn it off or replace it.
    var maintainsCheckpoint = true
    /// The key the fixture's descriptor declares for the log.
    var logKey = FixtureLedger.signer1
    /// Makes the checkpoint file from the log after the commit (default: the right one, signed).
    var checkpointMaker: ((CompactRange, NoteKey) -> [UInt8])?
    /// The original commits, oldest first.
    let commits: [ObjectID]
    let keysByFingerprint: [String: Ed25519.PrivateKey]

    init(path: String, keys: [Ed25519.PrivateKey]) throws {
        repository = try Repository.open(path)
        let tip = try repository.referenceTarget(LedgerLayout.branch)!
        commits = try repository.history(from: tip)
        keysByFingerprint = Dictionary(uniqueKeysWithValues: keys.map { (OpenSSHKey.fingerprint($0.publicKey), $0) })
    }

    var tip: ObjectID { try! repository.referenceTarget(LedgerLayout.branch)! }

    func info(_ id: ObjectID) -> CommitInfo { try! repository.commit(id) }

    func blob(_ bytes: [UInt8]) -> ObjectID { try! repository.writeBlob(bytes) }
    func blob(_ object: JSONObject) -> ObjectID { blob(CanonicalJSON.encode(object)) }

    func file(_ path: String, at commit: ObjectID? = nil) -> [UInt8] {
        try! repository.blob(at: path, inCommit: commit ?? tip)!
    }

    func json(_ path: String, at commit: ObjectID? = nil) -> JSONObject {
        try! CanonicalJSON.parse(file(path, at: commit))
    }

    /// The key that signed `commit`.
    func signer(of commit: ObjectID) -> Ed25519.PrivateKey {
        let extracted = try! repository.extractSignature(commit)!
        let signature = try! SSHSignature.parse(armored: extracted.signature)
        return keysByFingerprint[OpenSSHKey.fingerprint(signature.publicKey)]!
    }

    // MARK: - Commits

    /// Writes a raw commit and returns its id.
    func commit(
        tree: ObjectID, parents: [ObjectID], time: Int64, message: String, signing: Signing,
        extraHeaders: [String] = [], identity: String = "onym-ledger <ledger@onym.invalid>", offset: String = "+0000",
        afterSignature: [String] = [], signatureLineEnd: String = "\n"
    ) -> ObjectID {
        var header = "tree \(tree.hex)\n"
        for parent in parents { header += "parent \(parent.hex)\n" }
        header += "author \(identity) \(time) \(offset)\n"
        header += "committer \(identity) \(time) \(offset)\n"
        for extra in extraHeaders { header += extra + "\n" }
        // Headers after the signature are signed too: git signs the commit without its gpgsig header.
        let following = afterSignature.map { $0 + "\n" }.joined()
        let unsigned = Array((header + following + "\n" + message).utf8)
        func armored(_ key: Ed25519.PrivateKey, namespace: String = "git") -> String {
            SSHSignature.sign(unsigned, namespace: namespace, with: key).armored
        }
        func gpgsig(_ armor: String) -> String {
            "gpgsig " + armor.replacingOccurrences(of: "\n", with: "\n ") + signatureLineEnd
        }
        let signatureHeaders: String
        switch signing {
        case .none: signatureHeaders = ""
        case .key(let key): signatureHeaders = gpgsig(armored(key))
        case .namespace(let namespace, let key): signatureHeaders = gpgsig(armored(key, namespace: namespace))
        case .twoHeaders(let first, let second): signatureHeaders = gpgsig(armored(first)) + gpgsig(armored(second))
        case .twoArmors(let first, let second): signatureHeaders = gpgsig(armored(first) + "\n" + armored(second))
        case .corrupted(let key):
            var blob = SSHSignature.sign(unsigned, namespace: "git", with: key).blob
            blob[blob.count - 5] ^= 0x01
            signatureHeaders = gpgsig(SSHArmor.wrap(blob, label: SSHSignature.armorLabel, trailingNewline: false))
        case .copied(let armor): signatureHeaders = gpgsig(armor)
        }
        let signed = header + signatureHeaders + following + "\n" + message
        return try! repository.writeRawCommit(Array(signed.utf8))
    }

    /// `tree` with the checkpoint of the log after a commit of it on `parent` (``maintainsCheckpoint``).
    func withCheckpoint(_ tree: ObjectID, parent: ObjectID?) -> ObjectID {
        guard maintainsCheckpoint else { return tree }
        var log = parent.map { try! ReplayState.transparencyLog(at: $0, repository: repository) } ?? CompactRange()
        let parentTree = parent.map { info($0).tree }
        let files = try! repository.loggedFiles(from: parentTree, to: tree)
        for entry in LedgerLog.entries(of: files) { log.append(Merkle.leafHash(entry)) }
        guard let descriptorEntry = try? repository.entry(at: LedgerLayout.descriptorPath, inTree: tree),
            let descriptorBytes = try? repository.readBlob(descriptorEntry.id),
            let key = (try? LedgerDescriptor(json: CanonicalJSON.parse(descriptorBytes)))?.log
        else { return tree }
        let bytes =
            checkpointMaker?(log, key) ?? Array(try! LedgerLog.checkpoint(log, key: key, signer: logKey).formatted.utf8)
        return try! repository.rawUpdatedTree(
            base: tree, edits: [.upsert(path: LedgerLayout.checkpointPath, id: blob(bytes), mode: 0o100644)])
    }

    /// A new commit on top of the tip with `edits`; by default it restates the tip's message trailers.
    @discardableResult
    func append(
        _ edits: [Repository.RawTreeEdit], message: String? = nil, time: Int64? = nil, signing: Signing? = nil,
        extraHeaders: [String] = [], extraParents: [ObjectID] = [], afterSignature: [String] = [],
        signatureLineEnd: String = "\n"
    ) -> ObjectID {
        let tipInfo = info(tip)
        let tree = withCheckpoint(try! repository.rawUpdatedTree(base: tipInfo.tree, edits: edits), parent: tip)
        let trailers = LedgerTrailers(message: tipInfo.message)!
        let id = commit(
            tree: tree, parents: [tip] + extraParents, time: time ?? tipInfo.time + 60,
            message: message
                ?? "append: tampered\n\n\(LedgerTrailers(logSize: trailers.logSize, logHead: trailers.logHead).text)",
            signing: signing ?? .key(signer(of: tip)), extraHeaders: extraHeaders, afterSignature: afterSignature,
            signatureLineEnd: signatureLineEnd)
        try! repository.forceReference(LedgerLayout.branch, to: id)
        return id
    }

    /// Rebuilds history from commit `start` on: each commit's tree gets `edits(index)` applied to its
    /// original tree, its message `message(index, original)`, re-signed by `signing(index)` (default:
    /// its original signer); then the branch is force-moved to the new tip.
    func rewrite(
        from start: Int, edits: (Int) -> [Repository.RawTreeEdit] = { _ in [] },
        message: (Int, String) -> String = { $1 }, signing: ((Int) -> Signing)? = nil
    ) {
        var parent: ObjectID? = start > 0 ? commits[start - 1] : nil
        for index in start..<commits.count {
            let original = info(commits[index])
            let tree = withCheckpoint(
                try! repository.rawUpdatedTree(base: original.tree, edits: edits(index)), parent: parent)
            let id = commit(
                tree: tree, parents: parent.map { [$0] } ?? [], time: original.time,
                message: message(index, original.message),
                signing: signing?(index) ?? .key(signer(of: commits[index])))
            parent = id
        }
        try! repository.forceReference(LedgerLayout.branch, to: parent!)
    }

    /// A new commit on the tip whose tree gets one raw entry at `components` (any name, any mode),
    /// written as raw tree objects so names libgit2 refuses (`.git`, `..`) can be built.
    func appendRaw(_ components: [String], id: ObjectID, mode: UInt32) {
        func insert(into tree: ObjectID?, _ rest: ArraySlice<String>) -> ObjectID {
            var entries = (try? tree.map { try repository.treeEntries($0) } ?? []) ?? []
            let name = rest.first!
            let existing = entries.first { $0.name == name }
            let newID: ObjectID
            let newMode: UInt32
            if rest.count == 1 {
                newID = id
                newMode = mode
            } else {
                newID = insert(into: existing?.kind == .tree ? existing!.id : nil, rest.dropFirst())
                newMode = 0o040000
            }
            entries.removeAll { $0.name == name }
            return try! repository.writeRawTree(entries.map { ($0.name, $0.mode, $0.id) } + [(name, newMode, newID)])
        }
        let tipInfo = info(tip)
        let tree = insert(into: tipInfo.tree, components[...])
        let trailers = LedgerTrailers(message: tipInfo.message)!
        let commitID = commit(
            tree: tree, parents: [tip], time: tipInfo.time + 60,
            message: "append: raw\n\n\(trailers.text)", signing: .key(signer(of: tip)))
        try! repository.forceReference(LedgerLayout.branch, to: commitID)
    }

    /// A new commit on the tip whose root tree is the raw tree `bytes` (any form: unsorted, padded…).
    func appendRootTree(_ bytes: [UInt8]) {
        let tipInfo = info(tip)
        let tree = try! repository.writeRawTreeBytes(bytes)
        let trailers = LedgerTrailers(message: tipInfo.message)!
        let id = commit(
            tree: tree, parents: [tip], time: tipInfo.time + 60, message: "append: raw tree\n\n\(trailers.text)",
            signing: .key(signer(of: tip)))
        try! repository.forceReference(LedgerLayout.branch, to: id)
    }

    /// The tip's root tree as raw entries (mode text, name, id), for attacks that rewrite it.
    func rootEntries() -> [(mode: String, name: String, id: ObjectID)] {
        try! repository.treeEntries(info(tip).tree).map {
            ($0.kind == .tree ? "40000" : String($0.mode, radix: 8), $0.name, $0.id)
        }
    }

    /// Raw tree bytes for `entries`, in the order given.
    static func treeBytes(_ entries: [(mode: String, name: String, id: ObjectID)]) -> [UInt8] {
        entries.flatMap { Array("\($0.mode) \($0.name)".utf8) + [0] + $0.id.bytes }
    }

    /// Replaces `message`'s trailers with `trailers`.
    static func replacingTrailers(_ message: String, with trailers: LedgerTrailers) -> String {
        let subject = message.components(separatedBy: "\n\n").first ?? message
        return subject + "\n\n" + trailers.text
    }
}
