import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier
@testable import LedgerWriter

/// The tamper corpus: one mutated copy of ``FixtureLedger`` per attack, each with the policy that
/// must catch it. Built at test time by checked-in code, never by hand.
enum TamperCorpus {
    struct Attack: Sendable, CustomTestStringConvertible {
        let name: String
        let policy: String
        /// Verify the good ledger first so the attack meets a remembered checkpoint.
        var afterCheckpoint = false
        /// The finding is about the vendor's conduct in an authentic history (exit 2), not its integrity.
        var conduct = false
        /// A case of its own in the conformance suite (`conformance/ledgers/<name>.git`), for an attack that
        /// settles a point of the written contract beyond the first attack of its policy.
        var conformance: String? = nil
        /// For a conformance case that is not an attack: the ledger must verify (exit 0, no finding) — a
        /// point of the contract a stricter reading would wrongly refuse.
        var accepted = false
        let mutate: @Sendable (Surgeon) -> Void
        var testDescription: String { name }
    }

    typealias Edit = Repository.RawTreeEdit
    static let signer1 = FixtureLedger.signer1
    static let signer2 = FixtureLedger.signer2
    static let stranger = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x0f))!
    static let mandates = FixtureLedger.mandates
    static let verdicts = FixtureLedger.verdicts.map { try! Verdict(json: $0) }

    /// The good ledger's batches: 1 the profile, 2 the manifest and mandates, 3 verdicts and receipts; an
    /// attack that stores records on the tip opens batch 4.
    static let newBatch: Int64 = 4
    static func mandatePath(_ index: Int) -> String {
        LedgerLayout.recordPath(Mandate.self, mandates[index].ref, batch: 2)
    }
    static func verdictPath(_ index: Int) -> String {
        LedgerLayout.recordPath(Verdict.self, verdicts[index].ref, batch: 3)
    }
    static func receiptPath(_ index: Int) -> String {
        LedgerLayout.recordPath(VerdictReceipt.self, verdicts[index].ref, batch: 3)
    }
    static func entryPath(_ sequence: Int64) -> String { LedgerLayout.logEntryPath(sequence) }
    static let manifestPath = LedgerLayout.recordPath(
        AuthorityManifest.self, FixtureLedger.authority.manifestHash, batch: 2)
    static let signaturePath = LedgerLayout.manifestSignaturePath(FixtureLedger.authority.manifestHash, batch: 2)
    static let profilePath = LedgerLayout.recordPath(
        EnforcementProfile.self, try! EnforcementProfile(json: FixtureProfile.appleDeviceCheck).ref, batch: 1)
    /// Where a record an attack adds on the tip goes: the next batch.
    static func newRecordPath(_ kind: any StoredRecord.Type, _ address: ContentAddress) -> String {
        LedgerLayout.recordPath(kind, address, batch: newBatch)
    }
    static let mode: UInt32 = 0o100644

    /// Edits applied from the commit that introduced a file onwards.
    static func from(_ first: Int, _ edits: [Edit]) -> (Int) -> [Edit] { { index in index >= first ? edits : [] } }

    /// A new mandate/verdict/receipt/entry added by a fresh commit on the tip.
    static func add(_ surgeon: Surgeon, _ files: [(String, [UInt8])], signing: Surgeon.Signing? = nil) {
        surgeon.append(files.map { .upsert(path: $0.0, id: surgeon.blob($0.1), mode: mode) }, signing: signing)
    }

    /// Stores a verdict (signed JSON) with its receipt in a fresh commit on the tip; returns its address.
    /// `status` is the receipt's (what validation derives: `stored` while a ban waits for its executeAfter);
    /// `alongside` are more files for the same commit.
    @discardableResult
    static func addReceivedVerdict(
        _ surgeon: Surgeon, _ verdict: JSONObject, receivedAt: String, status: VerdictReceipt.Status = .queued,
        alongside: [(String, [UInt8])] = []
    ) -> ContentAddress {
        let ref = try! Verdict(json: verdict).ref
        let receipt = VerdictReceipt(verdictRef: ref, status: status, receivedAt: Instant.parse(receivedAt)!)
        add(
            surgeon,
            [
                (newRecordPath(Verdict.self, ref), CanonicalJSON.encode(verdict)),
                (newRecordPath(VerdictReceipt.self, ref), CanonicalJSON.encode(receipt.json)),
            ] + alongside)
        return ref
    }

    /// `trailers` stating the digest of `entries`' requests and the idempotency key `req-42`.
    static func keyed(_ trailers: LedgerTrailers, _ entries: [WriteLogEntry]) -> LedgerTrailers {
        var keyed = trailers
        keyed.writesDigest = WriteRequest.digest(entries.map(WriteRequest.init(of:)))
        keyed.idempotencyKey = "req-42"
        return keyed
    }

    static func entry(_ surgeon: Surgeon, _ sequence: Int64) -> WriteLogEntry {
        try! WriteLogEntry(json: surgeon.json(entryPath(sequence)))
    }

    /// Appends write entries continuing the chain, with trailers that match (so only the rule under test fails).
    static func appendEntries(
        _ surgeon: Surgeon, _ make: (WriteLogEntry) -> [WriteLogEntry], signing: Surgeon.Signing? = nil,
        trailers: ((LedgerTrailers) -> LedgerTrailers)? = nil
    ) {
        let last = entry(surgeon, 6)
        let entries = make(last)
        var stated = LedgerTrailers(logSize: entries.last!.sequence, logHead: entries.last!.entryHash)
        if let trailers { stated = trailers(stated) }
        surgeon.append(
            entries.map { .upsert(path: entryPath($0.sequence), id: surgeon.blob($0.json), mode: mode) },
            message: "append: entries\n\n\(stated.text)", signing: signing)
    }

    /// A write entry continuing the chain, dated inside the window of a commit ``Surgeon/append`` makes on
    /// the good ledger's tip (02:00:00 → 02:01:00), so that only the rule under test fails.
    static func write(
        _ sequence: Int64, after previous: WriteLogEntry, binding: String = FixtureLedger.bindings[0],
        by: String = "reconciliation", caseOpen: Bool = true, banned: Bool = false, fieldsWritten: String? = nil,
        at recordedAt: String = "2026-08-12T02:00:30Z"
    ) -> WriteLogEntry {
        try! WriteLogEntry(
            sequence: sequence, recordedAt: recordedAt, deviceBinding: WireString(binding),
            authorizedBy: WireString(by),
            caseOpen: caseOpen, banned: banned, outcome: "ok", fieldsWritten: fieldsWritten,
            previousHash: previous.entryHash)
    }

    static let attacks: [Attack] =
        history + timeTravel + signatures + tree + gitObjects + descriptor + records + verdictAttacks + checkpoints
        + revocationAttacks + grantAttacks + writeLog + limits + logHandover + replacedCosignatures

    // MARK: - Git objects only canonical, work bounded

    /// The tip's root tree with one entry changed by `edit` (mode text, name), written raw.
    static func editRoot(
        _ s: Surgeon, _ name: String, _ edit: (inout (mode: String, name: String, id: ObjectID)) -> Void
    ) {
        var entries = s.rootEntries()
        let index = entries.firstIndex { $0.name == name }!
        edit(&entries[index])
        s.appendRootTree(Surgeon.treeBytes(entries))
    }

    /// The second signer's key as an allowed-signers line writes it (`ssh-ed25519 <base64>`).
    static let key2 = OpenSSHKey.publicKeyLine(signer2.publicKey)

    /// A rotation commit on the tip, signed by the tip's signer, whose only change is `keys/allowed_signers`.
    static func rotate(_ s: Surgeon, to bytes: [UInt8]) {
        s.append(
            [.upsert(path: LedgerLayout.allowedSignersPath, id: s.blob(bytes), mode: mode)],
            message: "keys: rotate\n\n" + LedgerTrailers(message: s.info(s.tip).message).map {
                LedgerTrailers(logSize: $0.logSize, logHead: $0.logHead).text
            }!)
    }

    static func writeInGitDirectory(_ surgeon: Surgeon, _ path: String, _ text: String) {
        let full = surgeon.repository.gitDirectory + path
        try! FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try! text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    /// A signed commit on the tip with the tip's tree and message, by another identity or time zone.
    static func appendSameTree(
        _ s: Surgeon, identity: String = "onym-ledger <ledger@onym.invalid>", offset: String = "+0000"
    ) {
        let tipInfo = s.info(s.tip)
        let id = s.commit(
            tree: tipInfo.tree, parents: [s.tip], time: tipInfo.time + 60, message: tipInfo.message,
            signing: .key(s.signer(of: s.tip)), identity: identity, offset: offset)
        try! s.repository.forceReference(LedgerLayout.branch, to: id)
    }

    static let gitObjects: [Attack] = [
        Attack(name: "folder with mode 040755", policy: "GitObjectPolicy") { s in
            editRoot(s, "batches") { $0.mode = "40755" }
        },
        Attack(name: "folder with a zero-padded mode", policy: "GitObjectPolicy") { s in
            editRoot(s, "batches") { $0.mode = "040000" }
        },
        Attack(name: "file with a zero-padded mode", policy: "GitObjectPolicy") { s in
            editRoot(s, "ledger.json") { $0.mode = "0100644" }
        },
        Attack(name: "unsorted tree", policy: "GitObjectPolicy") { s in
            s.appendRootTree(Surgeon.treeBytes(s.rootEntries().reversed()))
        },
        Attack(name: "keys/allowed_signers listed twice, a stranger's second", policy: "GitObjectPolicy") { s in
            let keysTree = s.rootEntries().first { $0.name == "keys" }!.id
            let original = try! s.repository.treeEntries(keysTree)[0]
            let strangers = s.blob(Array(AllowedSigners(keys: [stranger.publicKey]).text.utf8))
            let keys = try! s.repository.writeRawTreeBytes(
                Surgeon.treeBytes([
                    ("100644", "allowed_signers", original.id), ("100644", "allowed_signers", strangers),
                ]))
            editRoot(s, "keys") { $0.id = keys }
        },
        Attack(name: "a name containing a slash", policy: "GitObjectPolicy") { s in
            var entries = s.rootEntries()
            entries.append(("100644", "verdicts/forged.json", s.blob(Array("{}".utf8))))
            s.appendRootTree(Surgeon.treeBytes(entries.sorted { $0.name < $1.name }))
        },
        Attack(name: "tree nested 40 000 deep", policy: "GitObjectPolicy") { s in
            var inner = s.blob(Array("{}".utf8))
            var mode = "100644"
            for _ in 0..<40_000 {
                inner = try! s.repository.writeRawTreeBytes(Surgeon.treeBytes([(mode, "d", inner)]))
                mode = "40000"
            }
            var entries = s.rootEntries()
            entries.append(("40000", "deep", inner))
            s.appendRootTree(Surgeon.treeBytes(entries.sorted { $0.name + "/" < $1.name + "/" }))
        },
        // docs/FORMAT.md: at most 5 folders above a file — the deepest record path's; a sixth is refused.
        Attack(
            name: "a record one folder deeper than the deepest path", policy: "GitObjectPolicy",
            conformance: "FolderSixDeep"
        ) { s in
            addMandate(s, "enrollment:device-22") { ref in
                let path = newRecordPath(Mandate.self, ref)
                let name = path.split(separator: "/").last!
                return path.dropLast(name.count) + "extra/" + name
            }
        },
        Attack(name: "folder object over the size limit", policy: "GitObjectPolicy") { s in
            let blob = s.blob(Array("{}".utf8))
            let names = (0..<12_000).map { String(format: "%064x.json", $0) }
            let big = try! s.repository.writeRawTreeBytes(Surgeon.treeBytes(names.map { ("100644", $0, blob) }))
            var entries = s.rootEntries()
            entries.append(("40000", "big", big))
            s.appendRootTree(Surgeon.treeBytes(entries.sorted { $0.name + "/" < $1.name + "/" }))
        },
        Attack(name: "a second manifest claims the authority's id with another key", policy: "AuthorityIdentityPolicy")
        {
            s in
            let impostor = FixtureAuthority(
                componentId: FixtureLedger.authority.componentId, seed: FixtureSeed.repeated(0x66))
            add(s, [(newRecordPath(AuthorityManifest.self, impostor.manifestHash), impostor.manifestBytes)])
        },
        // docs/FORMAT.md "Allowed signers": the grammar, a subset of what ssh-keygen reads.
        Attack(
            name: "allowed_signers with an unquoted namespaces option ssh-keygen refuses", policy: "CanonicalFormPolicy"
        ) { s in
            rotate(s, to: s.file(LedgerLayout.allowedSignersPath) + Array("onym-ledger namespaces=git \(key2)\n".utf8))
        },
        Attack(name: "allowed_signers with a key whose namespaces exclude git", policy: "CanonicalFormPolicy") { s in
            rotate(s, to: Array("onym-ledger namespaces=\"file\" \(key2)\n".utf8))
        },
        Attack(
            name:
                "allowed_signers in the full grammar: comments, blank lines, tabs, a quoted principal, namespaces lists",
            policy: "CanonicalFormPolicy", conformance: "AllowedSignersGrammar", accepted: true
        ) { s in
            let text =
                "# the ledger's signers\n\n\"onym-ledger\"\tnamespaces=\"file,git\" \(key2) release key\n"
                + "onym-ledger,ops@example.org \(key2)\n  # no final newline\nonym-ledger namespaces=\"git\" \(key2)"
            rotate(s, to: Array(text.utf8))
        },
        Attack(name: "HEAD names another branch", policy: "RepositoryPolicy") { s in
            writeInGitDirectory(s, "HEAD", "ref: refs/heads/other\n")
        },
        Attack(name: "a replace ref git would follow", policy: "RepositoryPolicy") { s in
            writeInGitDirectory(s, "refs/replace/\(s.commits[5].hex)", s.commits[4].hex + "\n")
        },
        Attack(name: "grafts rewrite parents for git", policy: "RepositoryPolicy") { s in
            writeInGitDirectory(s, "info/grafts", s.commits[5].hex + "\n")
        },
        Attack(name: "objects borrowed through alternates", policy: "RepositoryPolicy") { s in
            writeInGitDirectory(s, "objects/info/alternates", "/nonexistent/objects\n")
        },
        Attack(name: "commit by a foreign identity", policy: "CommitHeaderPolicy") { s in
            appendSameTree(s, identity: "Mallory <m@example.com>")
        },
        Attack(name: "commit in another time zone", policy: "CommitHeaderPolicy") { s in
            appendSameTree(s, offset: "+0200")
        },
    ]

    /// An unanswered status attempt to the fixture authority, correctly signed, added by a fresh commit.
    static func addStatusAttempt(_ surgeon: Surgeon, attemptedAt: String) {
        let attempt = FixtureRecords.statusAttempt(
            interface: FixtureLedger.interface, authority: FixtureLedger.authority.componentId,
            attemptedAt: attemptedAt)
        let ref = try! StatusAttempt(json: attempt).ref
        add(surgeon, [(newRecordPath(StatusAttempt.self, ref), CanonicalJSON.encode(attempt))])
    }

    // MARK: - Time travel: every time within its commit's window, commit times never decreasing

    static let timeTravel: [Attack] = [
        Attack(name: "commit dated before its parent", policy: "TimeOrderPolicy") { s in
            s.append([], time: s.info(s.tip).time - 86_400)
        },
        Attack(name: "commit dated 1970", policy: "TimeOrderPolicy") { s in s.append([], time: 0) },
        Attack(name: "write recorded before the previous commit", policy: "TimeOrderPolicy") { s in
            appendEntries(s) { last in [write(7, after: last, at: "2026-08-11T00:00:00Z")] }
        },
        Attack(name: "write recorded after its commit", policy: "TimeOrderPolicy") { s in
            appendEntries(s) { last in [write(7, after: last, at: "2027-06-01T00:00:00Z")] }
        },
        Attack(name: "status attempt dated before the ledger existed", policy: "TimeOrderPolicy") { s in
            addStatusAttempt(s, attemptedAt: "1970-01-01T00:00:00Z")
        },
        Attack(name: "status attempt dated in the future", policy: "TimeOrderPolicy") { s in
            addStatusAttempt(s, attemptedAt: "2027-01-01T00:00:00Z")
        },
    ]

    // MARK: - History

    static let history: [Attack] = [
        Attack(name: "merge commit", policy: "HistoryPolicy") { s in
            s.append([], extraParents: [s.commits[3]])
        },
        Attack(name: "second root commit on the branch", policy: "HistoryPolicy") { s in
            let orphan = s.commit(
                tree: s.info(s.tip).tree, parents: [], time: 1_786_600_000,
                message: "append: orphan\n\n" + LedgerTrailers(logSize: 6, logHead: entry(s, 6).entryHash).text,
                signing: .key(signer2))
            s.append([], extraParents: [orphan])
        },
        Attack(name: "force-push to a non-descendant", policy: "HistoryPolicy", afterCheckpoint: true) { s in
            s.rewrite(from: 5, message: { $1.replacingOccurrences(of: "append:", with: "append (rewritten):") })
        },
        Attack(name: "truncated history after a verified tip", policy: "HistoryPolicy", afterCheckpoint: true) { s in
            try! s.repository.forceReference(LedgerLayout.branch, to: s.commits[5])
        },
        Attack(name: "commit dated in the future", policy: "HistoryPolicy") { s in s.append([], time: 4_102_444_800) },
    ]

    // MARK: - Commit signatures and headers

    static let signatures: [Attack] = [
        Attack(name: "unsigned commit", policy: "CommitSignaturePolicy") { s in
            s.append([], signing: Surgeon.Signing.none)
        },
        Attack(name: "commit signed by an unknown key", policy: "CommitSignaturePolicy") { s in
            s.append([], signing: .key(stranger))
        },
        Attack(name: "signature with the wrong namespace", policy: "CommitSignaturePolicy") { s in
            s.append([], signing: .namespace("file", signer2))
        },
        Attack(name: "two signatures in one gpgsig header", policy: "CommitSignaturePolicy") { s in
            s.append([], signing: .twoArmors(signer2, signer2))
        },
        Attack(name: "two gpgsig headers", policy: "CommitHeaderPolicy") { s in
            s.append([], signing: .twoHeaders(signer2, signer2))
        },
        Attack(name: "corrupted signature bytes", policy: "CommitSignaturePolicy") { s in
            s.append([], signing: .corrupted(signer2))
        },
        Attack(name: "signature copied from another commit", policy: "CommitSignaturePolicy") { s in
            s.append([], signing: .copied(try! s.repository.extractSignature(s.commits[7])!.signature))
        },
        Attack(name: "backdated commit by a removed key", policy: "CommitSignaturePolicy") { s in
            s.append([], time: 1_786_000_000, signing: .key(signer1))
        },
        Attack(name: "commit signed by a key before its rotation", policy: "CommitSignaturePolicy") { s in
            s.rewrite(from: 3, signing: { index in index == 3 ? .key(signer2) : .key(s.signer(of: s.commits[index])) })
        },
        Attack(name: "whole ledger re-signed by another key", policy: "CommitSignaturePolicy") { s in
            s.rewrite(from: 0, signing: { _ in .key(stranger) })
        },
        Attack(name: "unknown commit header", policy: "CommitHeaderPolicy") { s in
            s.append([], extraHeaders: ["x-note hidden meaning"])
        },
        Attack(name: "encoding header", policy: "CommitHeaderPolicy") { s in
            s.append([], extraHeaders: ["encoding ISO-8859-1"])
        },
        // git reads the header after the CR as a header of its own, which the signature covers; read by
        // characters, CR LF is one line ending and the header a continuation of the signature.
        Attack(
            name: "a header behind a CR at the signature's end", policy: "CommitHeaderPolicy",
            conformance: "HeaderBehindACarriageReturn"
        ) { s in
            s.append([], afterSignature: ["encoding UTF-16LE"], signatureLineEnd: "\r\n")
        },
    ]

    // MARK: - Tree whitelist

    /// A valid new mandate for `binding`, stored at `path(ref)` by a fresh commit.
    static func addMandate(_ s: Surgeon, _ binding: String, path: (ContentAddress) -> String) {
        let mandate = FixtureRecords.mandate(
            user: FixtureLedger.users[0], interface: FixtureLedger.interface, authority: FixtureLedger.authority,
            classes: ["csam"], deviceBinding: binding, acceptedAt: "2026-08-12T02:00:10Z")
        add(s, [(path(try! Mandate(json: mandate).ref), CanonicalJSON.encode(mandate))])
    }

    static let tree: [Attack] = [
        Attack(name: "a record added to a batch an earlier commit published", policy: "BatchFolderPolicy") { s in
            addMandate(s, "enrollment:device-20") { LedgerLayout.recordPath(Mandate.self, $0, batch: 2) }
        },
        Attack(name: "a batch number skipped", policy: "BatchFolderPolicy") { s in
            addMandate(s, "enrollment:device-21") { LedgerLayout.recordPath(Mandate.self, $0, batch: newBatch + 1) }
        },
        Attack(name: "a mandate published again in a later batch", policy: "AppendOnlyPolicy") { s in
            add(s, [(newRecordPath(Mandate.self, mandates[0].ref), s.file(mandatePath(0)))])
        },
        Attack(name: "a second receipt for a published verdict", policy: "AppendOnlyPolicy") { s in
            let again = VerdictReceipt(
                verdictRef: verdicts[2].ref, status: .queued, receivedAt: Instant.parse("2026-08-12T02:00:30Z")!)
            add(s, [(newRecordPath(VerdictReceipt.self, verdicts[2].ref), CanonicalJSON.encode(again.json))])
        },
        Attack(name: "symlink", policy: "GitObjectPolicy") { s in
            s.append([
                .upsert(
                    path: "verdicts/00/00/" + String(repeating: "0", count: 64) + ".json",
                    id: s.blob(Array("../../ledger.json".utf8)), mode: 0o120000)
            ])
        },
        Attack(name: "gitlink", policy: "GitObjectPolicy") { s in
            s.append([.upsert(path: "vendor", id: s.commits[0], mode: 0o160000)])
        },
        Attack(name: "unexpected path", policy: "TreeWhitelistPolicy") { s in
            s.append([.upsert(path: "README.md", id: s.blob(Array("hello".utf8)), mode: mode)])
        },
        Attack(name: "case collision with the descriptor", policy: "TreeWhitelistPolicy") { s in
            s.append([.upsert(path: "Ledger.json", id: s.blob(s.file(LedgerLayout.descriptorPath)), mode: mode)])
        },
        Attack(name: "uppercase hex record name", policy: "TreeWhitelistPolicy") { s in
            let upper = mandatePath(0).uppercased().replacingOccurrences(of: "MANDATES", with: "mandates")
                .replacingOccurrences(of: "BATCHES", with: "batches")
                .replacingOccurrences(of: ".JSON", with: ".json")
            s.append([.upsert(path: upper, id: s.blob(s.file(mandatePath(0))), mode: mode)])
        },
        Attack(name: "executable file mode", policy: "GitObjectPolicy") { s in
            let next = write(7, after: entry(s, 6))
            s.append(
                [.upsert(path: entryPath(7), id: s.blob(next.json), mode: 0o100755)],
                message: "append: x\n\n" + LedgerTrailers(logSize: 7, logHead: next.entryHash).text)
        },
        Attack(name: ".git folder", policy: "GitObjectPolicy") { s in
            s.appendRaw([".git", "config"], id: s.blob(Array("[core]".utf8)), mode: mode)
        },
        Attack(name: "dot-dot name", policy: "GitObjectPolicy") { s in
            s.appendRaw(["log", "..", "x.json"], id: s.blob(Array("{}".utf8)), mode: mode)
        },
        Attack(name: "record in the wrong fan-out folder", policy: "TreeWhitelistPolicy") { s in
            let hex = mandates[0].ref.hex
            let wrong = LedgerLayout.batchFolder(newBatch) + "/mandates/\(hex.prefix(2))/\(hex).json"
            s.append([.upsert(path: wrong, id: s.blob(s.file(mandatePath(0))), mode: mode)])
        },
        Attack(name: "log entry with an unpadded name", policy: "TreeWhitelistPolicy") { s in
            s.append([
                .upsert(path: "log/0000000000/000/7.json", id: s.blob(write(7, after: entry(s, 6)).json), mode: mode)
            ])
        },
    ]

    // MARK: - Descriptor, signers, append-only

    static let descriptor: [Attack] = [
        Attack(name: "descriptor edited without rotation", policy: "DescriptorPolicy") { s in
            var object = s.json(LedgerLayout.descriptorPath)
            object.set("ledgerId", .string("someone-else"))
            s.append([.upsert(path: LedgerLayout.descriptorPath, id: s.blob(object), mode: mode)])
        },
        Attack(name: "descriptor deleted", policy: "DescriptorPolicy") { s in
            s.append([.remove(path: LedgerLayout.descriptorPath)])
        },
        Attack(name: "allowed signers deleted", policy: "DescriptorPolicy") { s in
            s.append([.remove(path: LedgerLayout.allowedSignersPath)])
        },
        Attack(name: "allowed signers emptied", policy: "DescriptorPolicy") { s in
            s.append([.upsert(path: LedgerLayout.allowedSignersPath, id: s.blob(Array("\n".utf8)), mode: mode)])
        },
        Attack(name: "rotation that also adds a record", policy: "DescriptorPolicy") { s in
            let signers = AllowedSigners(keys: [signer2.publicKey, stranger.publicKey])
            let next = write(7, after: entry(s, 6))
            s.append(
                [
                    .upsert(path: LedgerLayout.allowedSignersPath, id: s.blob(Array(signers.text.utf8)), mode: mode),
                    .upsert(path: entryPath(7), id: s.blob(next.json), mode: mode),
                ],
                message: "keys: add\n\n" + LedgerTrailers(logSize: 7, logHead: next.entryHash).text)
        },
        Attack(name: "first commit without a descriptor", policy: "DescriptorPolicy") { s in
            s.rewrite(from: 0, edits: from(0, [.remove(path: LedgerLayout.descriptorPath)]))
        },
        Attack(
            name: "a declared profile the first commit does not store", policy: "DescriptorPolicy",
            conformance: "DescriptorProfileNotStored"
        ) { s in
            s.rewrite(from: 0, edits: from(0, [.remove(path: profilePath)]))
        },
        // A history rewritten from its root under a look-alike of its ledger id would be kept apart from the
        // one auditors verified, so the descriptor admits no look-alike ids.
        Attack(
            name: "ledger id with a zero-width space", policy: "RecordSchemaPolicy",
            conformance: "DescriptorLedgerIdLookAlike"
        ) { s in
            var object = s.json(LedgerLayout.descriptorPath)
            object.set("ledgerId", .string("fixture\u{200B}-ledger"))
            s.rewrite(
                from: 0, edits: from(0, [.upsert(path: LedgerLayout.descriptorPath, id: s.blob(object), mode: mode)]))
        },
        Attack(name: "an Apple team id that is not one", policy: "RecordSchemaPolicy", conformance: "DescriptorTeamId")
        {
            s in
            var object = s.json(LedgerLayout.descriptorPath)
            object.set(
                "appleAccount",
                .object(JSONObject([("apps", .array([.string("app.onym.ios")])), ("teamId", .string("team 1"))])))
            s.rewrite(
                from: 0, edits: from(0, [.upsert(path: LedgerLayout.descriptorPath, id: s.blob(object), mode: mode)]))
        },
        Attack(name: "record modified by a later commit", policy: "AppendOnlyPolicy") { s in
            var object = s.json(mandatePath(0))
            object.set("deviceBinding", .string("enrollment:elsewhere"))
            s.append([.upsert(path: mandatePath(0), id: s.blob(object), mode: mode)])
        },
        Attack(name: "verdict deleted by a later commit", policy: "AppendOnlyPolicy") { s in
            s.append([.remove(path: verdictPath(1))])
        },
        Attack(name: "log entry deleted by a later commit", policy: "AppendOnlyPolicy") { s in
            s.append([.remove(path: entryPath(6))])
        },
        Attack(name: "manifest replaced by a later commit", policy: "AppendOnlyPolicy") { s in
            s.append([.upsert(path: manifestPath, id: s.blob(Array("{}".utf8)), mode: mode)])
        },
    ]

    // MARK: - Records

    static let records: [Attack] = [
        Attack(name: "modified byte in a mandate (history rewritten)", policy: "ContentAddressPolicy") { s in
            let bytes = s.file(mandatePath(0))
            let changed = Array(
                String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "device-0", with: "device-9").utf8)
            s.rewrite(from: 1, edits: from(1, [.upsert(path: mandatePath(0), id: s.blob(changed), mode: mode)]))
        },
        Attack(name: "non-canonical whitespace in a verdict", policy: "CanonicalFormPolicy") { s in
            let pretty = PrettyJSON.render(.object(s.json(verdictPath(0))))
            s.rewrite(from: 2, edits: from(2, [.upsert(path: verdictPath(0), id: s.blob(pretty), mode: mode)]))
        },
        Attack(name: "escaped slash in a verdict", policy: "CanonicalFormPolicy") { s in
            let text = String(decoding: s.file(verdictPath(1)), as: UTF8.self).replacingOccurrences(
                of: "/", with: "\\/")
            s.rewrite(
                from: 2, edits: from(2, [.upsert(path: verdictPath(1), id: s.blob(Array(text.utf8)), mode: mode)]))
        },
        Attack(name: "non-canonical descriptor", policy: "CanonicalFormPolicy") { s in
            let pretty = PrettyJSON.render(.object(s.json(LedgerLayout.descriptorPath)))
            s.rewrite(
                from: 0, edits: from(0, [.upsert(path: LedgerLayout.descriptorPath, id: s.blob(pretty), mode: mode)]))
        },
        Attack(name: "renamed mandate file", policy: "ContentAddressPolicy") { s in
            let other = LedgerLayout.recordPath(Mandate.self, ContentAddress(hashing: Array("other".utf8)), batch: 2)
            s.rewrite(
                from: 1,
                edits: from(
                    1,
                    [
                        .remove(path: mandatePath(2)),
                        .upsert(path: other, id: s.blob(s.file(mandatePath(2))), mode: mode),
                    ]))
        },
        Attack(name: "receipt filed under another verdict", policy: "ContentAddressPolicy") { s in
            s.rewrite(
                from: 2, edits: from(2, [.upsert(path: receiptPath(0), id: s.blob(s.file(receiptPath(2))), mode: mode)])
            )
        },
        Attack(name: "profile under a wrong name", policy: "ContentAddressPolicy") { s in
            var changed = FixtureProfile.appleDeviceCheck
            changed.set("specification", .string(String(repeating: "6", count: 64)))
            s.rewrite(
                from: 0,
                edits: from(
                    0,
                    [
                        .upsert(path: profilePath, id: s.blob(changed), mode: mode)
                    ])
            )
        },
        Attack(name: "mandate with a forged user signature", policy: "MandateSignaturePolicy") { s in
            var object = s.json(mandatePath(0))
            if case .array(let signatures) = object["signatures"]! {
                object.set("signatures", .array([signatures[1], signatures[1]]))
            }
            s.rewrite(from: 1, edits: from(1, [.upsert(path: mandatePath(0), id: s.blob(object), mode: mode)]))
        },
        Attack(name: "mandate missing its countersignature", policy: "MandateSignaturePolicy") { s in
            let mandate = FixtureRecords.mandate(
                user: FixtureLedger.users[0], interface: FixtureLedger.interface,
                authority: FixtureLedger.authority, classes: ["csam"], deviceBinding: "enrollment:device-7",
                acceptedAt: "2026-08-08T00:00:00Z", countersign: false)
            add(
                s,
                [
                    (
                        newRecordPath(Mandate.self, try! Mandate(json: mandate).ref),
                        CanonicalJSON.encode(mandate)
                    )
                ]
            )
        },
        Attack(name: "mandate countersigned by an epoch the descriptor does not list", policy: "MandateSignaturePolicy")
        { s in
            let mandate = FixtureRecords.mandate(
                user: FixtureLedger.users[0], interface: FixtureLedger.interface,
                authority: FixtureLedger.authority, classes: ["csam"], deviceBinding: "enrollment:device-8",
                acceptedAt: "2026-08-08T00:00:00Z", epoch: 3)
            add(
                s,
                [
                    (
                        newRecordPath(Mandate.self, try! Mandate(json: mandate).ref),
                        CanonicalJSON.encode(mandate)
                    )
                ]
            )
        },
        Attack(name: "mandate for another interface", policy: "MandateScopePolicy") { s in
            let mandate = FixtureRecords.mandate(
                user: FixtureLedger.users[0], interface: FixtureLedger.interface,
                authority: FixtureLedger.authority, classes: ["csam"], deviceBinding: "enrollment:device-9",
                acceptedAt: "2026-08-08T00:00:00Z", edit: { $0.set("interface", .string("onym:component:other-app")) })
            add(
                s,
                [
                    (
                        newRecordPath(Mandate.self, try! Mandate(json: mandate).ref),
                        CanonicalJSON.encode(mandate)
                    )
                ]
            )
        },
        Attack(name: "record that is not JSON", policy: "RecordSchemaPolicy") { s in
            add(s, [(newRecordPath(Verdict.self, ContentAddress(hashing: [1])), Array("not json".utf8))])
        },
        Attack(name: "mandate of an unknown version", policy: "RecordSchemaPolicy") { s in
            var object = s.json(mandatePath(1))
            object.set("mandateVersion", .integer(2))
            add(
                s,
                [
                    (
                        newRecordPath(
                            Mandate.self,
                            ContentAddress(hashing: CanonicalJSON.signingBytes(of: object, omitting: "signatures"))),
                        CanonicalJSON.encode(object)
                    )
                ])
        },
        Attack(name: "deep JSON", policy: "RecordSchemaPolicy") { s in
            let deep = String(repeating: "{\"a\":", count: 200) + "1" + String(repeating: "}", count: 200)
            add(s, [(newRecordPath(Mandate.self, ContentAddress(hashing: [2])), Array(deep.utf8))])
        },
        Attack(name: "manifest with a bad detached signature", policy: "ManifestSignaturePolicy") { s in
            s.rewrite(
                from: 1,
                edits: from(1, [.upsert(path: signaturePath, id: s.blob([UInt8](repeating: 7, count: 64)), mode: mode)])
            )
        },
        Attack(name: "detached signature for a manifest the ledger lacks", policy: "ManifestSignaturePolicy") { s in
            let other = LedgerLayout.manifestSignaturePath(ContentAddress(hashing: [3]), batch: newBatch)
            s.append([.upsert(path: other, id: s.blob(s.file(signaturePath)), mode: mode)])
        },
    ]

    // MARK: - Verdicts and receipts

    static let verdictAttacks: [Attack] = [
        // Not an attack: a write logged in whole seconds happened somewhere in its second, so one logged in the
        // second a deadline default falls in (0.221 s into it) is explained (docs/DECISIONS.md, "A write's second").
        Attack(
            name: "a whole-second write in the second of a fractional deadline", policy: "WriteReplayPolicy",
            conformance: "WriteJudgedOverItsSecond", accepted: true
        ) { s in
            let verdict = FixtureRecords.verdict(
                .openCase, caseId: "case-fractional-deadline", mandate: mandates[2],
                authority: FixtureLedger.authority, classId: "csam", decidedAt: "2026-08-12T02:00:20Z",
                extra: [("decisionDeadline", .string("2026-08-12T02:01:10.221Z"))])
            addReceivedVerdict(s, verdict, receivedAt: "2026-08-12T02:00:30Z")
            // At 02:01:10.000 the case is still open; 0.221 s later its deadline default clears it.
            appendEntries(s) { last in
                [
                    write(
                        7, after: last, binding: FixtureLedger.bindings[2],
                        by: EvaluatorRule.decisionDeadlineDefault.rawValue, caseOpen: false, banned: false,
                        at: "2026-08-12T02:01:10Z")
                ]
            }
        },
        Attack(
            name: "a write that follows a stored invalid verdict", policy: "WriteReplayPolicy", conduct: true,
            conformance: "InvalidVerdictNotExecuted"
        ) { s in
            var object = s.json(verdictPath(1))
            object.set("banExpires", .string("2030-01-01T00:00:00Z"))
            let resigned = FixtureLedger.authority.sign(object)
            let invalid = addReceivedVerdict(s, resigned, receivedAt: "2026-08-12T02:00:30Z")
            appendEntries(s) { last in
                [
                    write(
                        7, after: last, binding: FixtureLedger.bindings[1], by: invalid.hex, caseOpen: false,
                        banned: true, at: "2026-08-12T02:01:30Z")
                ]
            }
        },
        // Not an attack: the reference executes a verdict when it arrives, even one signed up to 300 s ahead of
        // the receiving clock (docs/DECISIONS.md F1), so the vendor's write at that instant is authorized.
        Attack(
            name: "a write at the receipt of a verdict signed 180 s later", policy: "WriteReplayPolicy",
            conformance: "VerdictCountsFromItsReceipt", accepted: true
        ) { s in
            let verdict = FixtureRecords.verdict(
                .openCase, caseId: "case-signed-ahead", mandate: mandates[2], authority: FixtureLedger.authority,
                classId: "csam", decidedAt: "2026-08-12T02:03:30Z")
            let ref = addReceivedVerdict(s, verdict, receivedAt: "2026-08-12T02:00:30Z")
            appendEntries(s) { last in
                [
                    write(
                        7, after: last, binding: FixtureLedger.bindings[2], by: ref.hex, caseOpen: true, banned: false,
                        at: "2026-08-12T02:01:30Z")
                ]
            }
        },
        Attack(name: "verdict signed by the wrong key", policy: "VerdictAuthorityPolicy") { s in
            let forger = FixtureAuthority(seed: FixtureSeed.repeated(0x0e))
            var object = s.json(verdictPath(1))
            object.remove("signature")
            let forged = forger.sign(object)
            s.rewrite(from: 2, edits: from(2, [.upsert(path: verdictPath(1), id: s.blob(forged), mode: mode)]))
        },
        Attack(name: "verdict with shifted banExpires (re-signed)", policy: "VerdictValidationPolicy", conduct: true) {
            s in
            var object = s.json(verdictPath(1))
            object.set("banExpires", .string("2030-01-01T00:00:00Z"))
            let resigned = FixtureLedger.authority.sign(object)
            let verdict = try! Verdict(json: resigned)
            let receipt = VerdictReceipt(
                verdictRef: verdict.ref, status: .queued, receivedAt: Instant.parse("2026-08-12T02:00:30Z")!)
            add(
                s,
                [
                    (newRecordPath(Verdict.self, verdict.ref), CanonicalJSON.encode(resigned)),
                    (newRecordPath(VerdictReceipt.self, verdict.ref), CanonicalJSON.encode(receipt.json)),
                ])
        },
        Attack(name: "verdict with shifted banExpires (not re-signed)", policy: "VerdictAuthorityPolicy") { s in
            var object = s.json(verdictPath(1))
            object.set("banExpires", .string("2030-01-01T00:00:00Z"))
            let ref = SHA256.hash(CanonicalJSON.signingBytes(of: object, omitting: "signature"))
            let receipt = VerdictReceipt(
                verdictRef: ref, status: .queued, receivedAt: Instant.parse("2026-08-12T02:30:00Z")!)
            add(
                s,
                [
                    (newRecordPath(Verdict.self, ref), CanonicalJSON.encode(object)),
                    (newRecordPath(VerdictReceipt.self, ref), CanonicalJSON.encode(receipt.json)),
                ])
        },
        Attack(name: "verdict for a mandate the ledger lacks", policy: "VerdictAuthorityPolicy") { s in
            let stray = try! Mandate(
                json: FixtureRecords.mandate(
                    user: FixtureLedger.users[2], interface: FixtureLedger.interface,
                    authority: FixtureLedger.authority, classes: ["csam"], deviceBinding: "enrollment:ghost",
                    acceptedAt: "2026-08-08T00:00:00Z"))
            let verdict = try! Verdict(
                json: FixtureRecords.verdict(
                    .dismiss, caseId: "c", mandate: stray,
                    authority: FixtureLedger.authority, classId: "csam", decidedAt: "2026-08-12T00:00:00Z"))
            let receipt = VerdictReceipt(
                verdictRef: verdict.ref, status: .queued, receivedAt: Instant.parse("2026-08-12T02:30:00Z")!)
            add(
                s,
                [
                    (newRecordPath(Verdict.self, verdict.ref), CanonicalJSON.encode(verdict.json)),
                    (newRecordPath(VerdictReceipt.self, verdict.ref), CanonicalJSON.encode(receipt.json)),
                ])
        },
        Attack(name: "verdict whose consented manifest the ledger lacks", policy: "VerdictAuthorityPolicy") { s in
            s.rewrite(from: 1, edits: from(1, [.remove(path: manifestPath), .remove(path: signaturePath)]))
        },
        Attack(name: "mandate removed from history", policy: "VerdictAuthorityPolicy") { s in
            s.rewrite(from: 1, edits: from(1, [.remove(path: mandatePath(1))]))
        },
        Attack(name: "verdict without a receipt", policy: "VerdictValidationPolicy") { s in
            s.rewrite(from: 2, edits: from(2, [.remove(path: receiptPath(2))]))
        },
        Attack(name: "verdict received before it was decided", policy: "VerdictValidationPolicy", conduct: true) { s in
            let early = VerdictReceipt(
                verdictRef: verdicts[2].ref, status: .queued, receivedAt: Instant.parse("2026-08-09T00:00:00Z")!)
            s.rewrite(from: 2, edits: from(2, [.upsert(path: receiptPath(2), id: s.blob(early.json), mode: mode)]))
        },
        Attack(name: "receipt for a verdict that does not exist", policy: "ReceiptPolicy") { s in
            let ref = ContentAddress(hashing: [4])
            let receipt = VerdictReceipt(
                verdictRef: ref, status: .queued, receivedAt: Instant.parse("2026-08-12T00:00:00Z")!)
            add(s, [(newRecordPath(VerdictReceipt.self, ref), CanonicalJSON.encode(receipt.json))])
        },
        Attack(name: "receipt with the wrong status", policy: "ReceiptPolicy") { s in
            let wrong = VerdictReceipt(
                verdictRef: verdicts[1].ref, status: .stored, receivedAt: Instant.parse("2026-08-10T00:01:00Z")!)
            s.rewrite(from: 2, edits: from(2, [.upsert(path: receiptPath(1), id: s.blob(wrong.json), mode: mode)]))
        },
        Attack(name: "receipt dated after its commit", policy: "TimeOrderPolicy") { s in
            let late = VerdictReceipt(
                verdictRef: verdicts[0].ref, status: .queued, receivedAt: Instant.parse("2026-08-20T00:00:00Z")!)
            s.rewrite(from: 2, edits: from(2, [.upsert(path: receiptPath(0), id: s.blob(late.json), mode: mode)]))
        },
    ]

    // MARK: - Grants and redemptions (docs/FORMAT.md "Grants and redemptions")

    /// An authority's grant for the banned identity of the good ledger (mandate 1, case-ban, device 1).
    static func grant(
        _ type: Grant.GrantType, grantee: Int = 1, issuedAt: String = "2026-08-12T02:00:10Z",
        signer: Ed25519.PrivateKey = FixtureLedger.authority.operatorKey
    ) -> JSONObject {
        FixtureRecords.grant(
            type.rawValue, caseId: "case-ban", grantee: mandates[grantee].userKey.text,
            authority: FixtureLedger.authority,
            issuedAt: issuedAt, signer: signer)
    }

    /// Stores `grant` and its redemptions on device `binding` (the mandate of that index) in a commit on the
    /// tip (02:00:00 → 02:01:00); returns the grantRef.
    @discardableResult
    static func redeem(
        _ s: Surgeon, _ grant: JSONObject, binding: Int = 1, at times: [String] = ["2026-08-12T02:00:20Z"]
    ) -> ContentAddress {
        let stored = try! Grant(json: grant)
        let redemptions = times.map { time in
            try! Redemption(
                json: FixtureRecords.redemption(
                    of: grant, mandateRef: mandates[binding].ref, from: FixtureLedger.bindings[binding],
                    to: stored.grantType == .recovery ? "enrollment:device-9" : nil, redeemedAt: time))
        }
        add(
            s,
            [(newRecordPath(Grant.self, stored.ref), CanonicalJSON.encode(stored.json))]
                + redemptions.map { (newRecordPath(Redemption.self, $0.ref), CanonicalJSON.encode($0.json)) })
        return stored.ref
    }

    /// Logs device 1's clear write authorized by `label` in the next commit (02:01:00 → 02:02:00).
    static func clearDevice1(_ s: Surgeon, by label: String) {
        appendEntries(s) { last in
            [
                write(
                    7, after: last, binding: FixtureLedger.bindings[1], by: label, caseOpen: false, banned: false,
                    at: "2026-08-12T02:01:30Z")
            ]
        }
    }

    static let grantAttacks: [Attack] = [
        // Not an attack: an unban grant redeemed within the rules ends the ban, and the clear write it
        // explains is logged `recovery-unban:<grantRef>` (onym-wire §3.13).
        Attack(
            name: "an unban grant redeemed, and the write it authorizes", policy: "GrantPolicy",
            conformance: "UnbanGrantRedeemed", accepted: true
        ) { s in
            let ref = redeem(s, grant(.unban))
            clearDevice1(s, by: GrantRedemption.labelPrefix + ref.hex)
        },
        Attack(
            name: "a write authorized by a grant never redeemed", policy: "WriteReplayPolicy", conduct: true,
            conformance: "WriteByAnUnredeemedGrant"
        ) { s in
            let stored = try! Grant(json: grant(.unban))
            add(s, [(newRecordPath(Grant.self, stored.ref), CanonicalJSON.encode(stored.json))])
            clearDevice1(s, by: GrantRedemption.labelPrefix + stored.ref.hex)
        },
        Attack(
            name: "a redeemed grant signed by a stranger", policy: "GrantPolicy", conduct: true,
            conformance: "GrantSignedByAStranger"
        ) { s in
            redeem(s, grant(.unban, signer: stranger))
        },
        Attack(
            name: "a grant redeemed after its 30 days", policy: "GrantPolicy", conduct: true,
            conformance: "GrantRedeemedAfterItsLifetime"
        ) { s in
            redeem(s, grant(.unban, issuedAt: "2026-07-13T02:00:19Z"))
        },
        Attack(
            name: "a grant redeemed twice", policy: "GrantPolicy", conduct: true, conformance: "GrantRedeemedTwice"
        ) { s in
            redeem(s, grant(.unban), at: ["2026-08-12T02:00:20Z", "2026-08-12T02:00:25Z"])
        },
        Attack(
            name: "an unban for an identity no ban of the case accuses", policy: "GrantPolicy", conduct: true,
            conformance: "UnbanWithoutABan"
        ) { s in
            redeem(s, grant(.unban, grantee: 0), binding: 0)
        },
        Attack(
            name: "a recovery redeemed with another identity's mandate", policy: "GrantPolicy", conduct: true,
            conformance: "RecoveryWithAnotherIdentitysMandate"
        ) { s in
            redeem(s, grant(.recovery, grantee: 1), binding: 2)
        },
        Attack(name: "a grant without its grantType", policy: "RecordSchemaPolicy") { s in
            var object = grant(.unban)
            object.remove("grantType")
            let ref = SHA256.hash(CanonicalJSON.signingBytes(of: object, omitting: "signature"))
            add(s, [(newRecordPath(Grant.self, ref), CanonicalJSON.encode(object))])
        },
    ]

    // MARK: - Designation revocation

    static let revocationAttacks: [Attack] = [
        // Not an attack (docs/DECISIONS.md F10, "A revocation that ends only a pending ban is not a step"): a
        // suspensive ban waits 30 days for its executeAfter when its authority reports a compromise and the
        // interface revokes the designation from the compromise time. The ban never takes effect and no bit
        // changes, so the device's next write is logged against the latest real step, the ban's decision.
        Attack(
            name: "a write after a revocation that ended only a pending ban", policy: "WriteReplayPolicy",
            conformance: "RevocationEndingOnlyAPendingBan", accepted: true
        ) { s in
            let ban = FixtureRecords.verdict(
                .ban, caseId: "case-pending", mandate: mandates[2], authority: FixtureLedger.authority,
                classId: "unsolicited-pornography", decidedAt: "2026-08-12T02:00:20Z")
            let report = try! CompromiseReport(
                json: FixtureRecords.compromiseReport(
                    authority: FixtureLedger.authority, compromisedAt: "2026-08-12T02:00:40Z",
                    reportedAt: "2026-08-12T02:00:45Z"))
            let revocation = try! RevocationDetermination(
                json: FixtureRecords.revocation(
                    interface: FixtureLedger.interface, authority: FixtureLedger.authority.componentId,
                    trigger: "authority-compromise", effectiveAt: "2026-08-12T02:00:40Z",
                    determinedAt: "2026-08-12T02:00:50Z", evidence: [report.ref]))
            let ref = addReceivedVerdict(
                s, ban, receivedAt: "2026-08-12T02:00:30Z", status: .stored,
                alongside: [
                    (newRecordPath(CompromiseReport.self, report.ref), CanonicalJSON.encode(report.json)),
                    (
                        newRecordPath(RevocationDetermination.self, revocation.ref),
                        CanonicalJSON.encode(revocation.json)
                    ),
                ])
            appendEntries(s) { last in
                [
                    write(
                        7, after: last, binding: FixtureLedger.bindings[2], by: ref.hex, caseOpen: false, banned: false,
                        at: "2026-08-12T02:01:30Z")
                ]
            }
        },
        Attack(name: "revocation without justifying evidence", policy: "RevocationPolicy") { s in
            let revocation = try! RevocationDetermination(
                json: FixtureRecords.revocation(
                    interface: FixtureLedger.interface, authority: FixtureLedger.authority.componentId,
                    trigger: "authority-compromise",
                    effectiveAt: "2026-08-12T00:00:00Z", determinedAt: "2026-08-12T01:00:00Z",
                    evidence: [ContentAddress(hashing: [7])]))
            add(
                s,
                [
                    (
                        newRecordPath(RevocationDetermination.self, revocation.ref),
                        CanonicalJSON.encode(revocation.json)
                    )
                ])
        },
        Attack(name: "status attempt signed by a stranger", policy: "RevocationPolicy") { s in
            let attempt = try! StatusAttempt(
                json: FixtureRecords.signed(
                    FixtureRecords.statusAttempt(
                        interface: FixtureLedger.interface, authority: FixtureLedger.authority.componentId,
                        attemptedAt: "2026-08-12T00:00:00Z"), with: stranger))
            add(s, [(newRecordPath(StatusAttempt.self, attempt.ref), CanonicalJSON.encode(attempt.json))])
        },
        Attack(name: "compromise report signed by a stranger", policy: "RevocationPolicy") { s in
            let report = try! CompromiseReport(
                json: FixtureRecords.signed(
                    FixtureRecords.compromiseReport(
                        authority: FixtureLedger.authority, compromisedAt: "2026-08-11T00:00:00Z",
                        reportedAt: "2026-08-12T00:00:00Z"),
                    with: stranger))
            add(s, [(newRecordPath(CompromiseReport.self, report.ref), CanonicalJSON.encode(report.json))])
        },
    ]

    // MARK: - Write log

    static let writeLog: [Attack] = [
        Attack(name: "log entry removed at the tail", policy: "LogTrailerPolicy") { s in
            s.rewrite(from: 7, edits: from(7, [.remove(path: entryPath(6))]))
        },
        Attack(name: "log entry removed in the middle", policy: "ChainLinkPolicy") { s in
            s.rewrite(from: 3, edits: from(3, [.remove(path: entryPath(2))]))
        },
        Attack(name: "swapped log entries", policy: "ChainLinkPolicy") { s in
            let first = s.file(entryPath(5))
            let second = s.file(entryPath(6))
            s.rewrite(
                from: 7,
                edits: from(
                    7,
                    [
                        .upsert(path: entryPath(5), id: s.blob(second), mode: mode),
                        .upsert(path: entryPath(6), id: s.blob(first), mode: mode),
                    ]))
        },
        Attack(name: "forged chain hash", policy: "ChainLinkPolicy") { s in
            var object = s.json(entryPath(2))
            object.set("banned", .bool(false))
            s.rewrite(from: 3, edits: from(3, [.upsert(path: entryPath(2), id: s.blob(object), mode: mode)]))
        },
        Attack(name: "entry hash recomputed but next link broken", policy: "ChainLinkPolicy") { s in
            let original = entry(s, 2)
            let forged = try! WriteLogEntry(
                sequence: 2, recordedAt: original.recordedAtText, deviceBinding: original.deviceBinding,
                authorizedBy: original.authorizedBy, caseOpen: original.caseOpen, banned: false,
                outcome: original.outcome,
                previousHash: original.previousHash)
            s.rewrite(from: 3, edits: from(3, [.upsert(path: entryPath(2), id: s.blob(forged.json), mode: mode)]))
        },
        Attack(name: "sequence gap", policy: "ChainLinkPolicy") { s in
            appendEntries(s) { last in [write(8, after: last)] }
        },
        Attack(name: "entry not linked to the head", policy: "ChainLinkPolicy") { s in
            appendEntries(s) { last in [write(7, after: entry(s, 3))] }
        },
        Attack(name: "trailers state the wrong size", policy: "LogTrailerPolicy") { s in
            appendEntries(
                s, { last in [write(7, after: last)] },
                trailers: { LedgerTrailers(logSize: $0.logSize + 1, logHead: $0.logHead) })
        },
        Attack(name: "trailers state the wrong head", policy: "LogTrailerPolicy") { s in
            appendEntries(
                s, { last in [write(7, after: last)] },
                trailers: { LedgerTrailers(logSize: $0.logSize, logHead: String(repeating: "a", count: 64)) })
        },
        Attack(name: "a writes digest of other writes", policy: "LogTrailerPolicy") { s in
            // What a keyed retry is compared against, stated for writes the commit does not add.
            appendEntries(
                s, { last in [write(7, after: last)] },
                trailers: { stated in
                    var forged = stated
                    forged.writesDigest = ContentAddress(hashing: [9])
                    return forged
                })
        },
        // docs/DECISIONS.md "The retry contract", a rule of the verifier too: a key names one batch.
        Attack(
            name: "the same keyed call logged twice", policy: "LogTrailerPolicy", conformance: "IdempotencyKeyReused"
        ) { s in
            // Both commits in the second the call was made (02:01:00), so only the rule under test fails.
            let first = write(7, after: entry(s, 6), at: "2026-08-12T02:01:00Z")
            appendEntries(s, { _ in [first] }, trailers: { keyed($0, [first]) })
            // The retry's request is the first call's: its entry differs only in its place in the chain.
            let again = write(8, after: first, at: "2026-08-12T02:01:00Z")
            s.append(
                [.upsert(path: entryPath(8), id: s.blob(again.json), mode: mode)],
                message: "append: again\n\n"
                    + keyed(LedgerTrailers(logSize: 8, logHead: again.entryHash), [again]).text,
                time: s.info(s.tip).time)
        },
        Attack(name: "one idempotency key on two commits", policy: "LogTrailerPolicy") { s in
            let first = write(7, after: entry(s, 6))
            appendEntries(s, { _ in [first] }, trailers: { keyed($0, [first]) })
            s.append(
                [],
                message: "append: nothing\n\n"
                    + LedgerTrailers(logSize: 7, logHead: first.entryHash, idempotencyKey: "req-42").text)
        },
        Attack(
            name: "a trailer block with a key git does not read as a trailer", policy: "LogTrailerPolicy",
            conformance: "TrailerGrammar"
        ) { s in
            let trailers = LedgerTrailers(message: s.info(s.tip).message)!
            s.append(
                [],
                message: "append: x\n\n"
                    + LedgerTrailers(logSize: trailers.logSize, logHead: trailers.logHead).text + "Reviewed by: x\n")
        },
        Attack(name: "an idempotency key outside the alphabet", policy: "LogTrailerPolicy") { s in
            let trailers = LedgerTrailers(message: s.info(s.tip).message)!
            s.append(
                [],
                message: "append: x\n\n" + LedgerTrailers(logSize: trailers.logSize, logHead: trailers.logHead).text
                    + "\(LedgerTrailers.idempotencyKeyKey): req 42\n")
        },
        Attack(name: "commit without trailers", policy: "LogTrailerPolicy") { s in
            s.append([], message: "append: nothing\n")
        },
        Attack(name: "write for a device binding no mandate names", policy: "MandateScopePolicy") { s in
            appendEntries(s) { last in [write(7, after: last, binding: "enrollment:nobody")] }
        },
        // docs/FORMAT.md, "Strings compare by bytes": a mandate names é precomposed; the write names it
        // decomposed, a binding no mandate names.
        Attack(
            name: "write for an equivalent spelling of a mandated binding", policy: "MandateScopePolicy",
            conformance: "WriteToAnEquivalentBinding"
        ) { s in
            let mandate = FixtureRecords.mandate(
                user: FixtureLedger.users[0], interface: FixtureLedger.interface,
                authority: FixtureLedger.authority, classes: ["csam"], deviceBinding: "enrollment:caf\u{E9}",
                acceptedAt: "2026-08-12T02:00:30Z")
            let written = write(
                7, after: entry(s, 6), binding: "enrollment:cafe\u{301}", caseOpen: false, banned: false)
            s.append(
                [
                    .upsert(
                        path: newRecordPath(Mandate.self, try! Mandate(json: mandate).ref),
                        id: s.blob(CanonicalJSON.encode(mandate)), mode: mode),
                    .upsert(path: entryPath(7), id: s.blob(written.json), mode: mode),
                ],
                message: "append: entries\n\n\(LedgerTrailers(logSize: 7, logHead: written.entryHash).text)")
        },
        Attack(name: "write by an Android writer in an Apple ledger", policy: "AccountScopePolicy", conduct: true) {
            s in
            appendEntries(s) { last in [write(7, after: last, fieldsWritten: #"{"bitFirst":true}"#)] }
        },
        Attack(name: "forged write: correct chain, wrong bits", policy: "WriteReplayPolicy", conduct: true) { s in
            appendEntries(s) { last in [write(7, after: last, by: verdicts[0].ref.hex, caseOpen: false, banned: true)] }
        },
        Attack(name: "write with the wrong authorizedBy", policy: "WriteReplayPolicy", conduct: true) { s in
            appendEntries(s) { last in [write(7, after: last, by: "reconciliation", caseOpen: true, banned: false)] }
        },
        Attack(name: "ban written on a device with no ban verdict", policy: "WriteReplayPolicy", conduct: true) { s in
            appendEntries(s) { last in
                [
                    write(
                        7, after: last, binding: FixtureLedger.bindings[2], by: verdicts[1].ref.hex,
                        caseOpen: false, banned: true)
                ]
            }
        },
        Attack(name: "failed write of unauthorized bits", policy: "WriteReplayPolicy", conduct: true) { s in
            appendEntries(s) { last in
                [
                    try! WriteLogEntry(
                        sequence: 7, recordedAt: "2026-08-12T02:00:30Z",
                        deviceBinding: WireString(FixtureLedger.bindings[1]),
                        authorizedBy: "expiry", caseOpen: false, banned: false,
                        outcome: "failed: mark_write_failed: 503",
                        previousHash: last.entryHash)
                ]
            }
        },
        Attack(name: "entry with an invalid outcome", policy: "RecordSchemaPolicy") { s in
            var object = write(7, after: entry(s, 6)).json
            object.set("outcome", .string("maybe"))
            s.append([.upsert(path: entryPath(7), id: s.blob(object), mode: mode)])
        },
    ]

    // MARK: - Limits

    // MARK: - Checkpoints

    /// A valid new mandate added by a fresh commit whose checkpoint `maker` writes (nil: none is written).
    static func addWithCheckpoint(_ s: Surgeon, _ maker: ((CompactRange, NoteKey) -> [UInt8])?) {
        if let maker { s.checkpointMaker = maker } else { s.maintainsCheckpoint = false }
        addMandate(s, "enrollment:device-30") { newRecordPath(Mandate.self, $0) }
    }

    /// A valid new mandate added by a fresh commit whose checkpoint is the right body with the signature
    /// lines `lines` makes from the body and the log key's good line.
    static func addWithCheckpointLines(
        _ s: Surgeon, _ lines: @escaping (String, SignedNote.Signature) -> [SignedNote.Signature]
    ) {
        addWithCheckpoint(s) { log, key in
            let text = TreeHead(origin: key.name, size: log.size, root: log.root).text
            let good = SignedNote.sign(text, name: key.name, with: FixtureLedger.signer1)!
            return Array(SignedNote(text: text, signatures: lines(text, good)).formatted.utf8)
        }
    }

    static func note(_ head: TreeHead, _ key: NoteKey, signedBy signer: Ed25519.PrivateKey, as name: String? = nil)
        -> [UInt8]
    {
        let verifier = NoteKey(name: name ?? key.name, type: NoteKey.ed25519, publicKey: signer.publicKey)!
        let signature = SignedNote.Signature(
            name: verifier.name, keyID: verifier.keyID, payload: signer.signature(for: Array(head.text.utf8)))
        return Array(SignedNote(text: head.text, signatures: [signature]).formatted.utf8)
    }

    // MARK: - Log handover (docs/FORMAT.md, "Log handover")

    static let newLogKey = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x0c))!

    /// Hands the log to ``newLogKey`` under a new origin in a commit on the tip (signed by the tip's signer),
    /// with `extra` edits in the same commit; later checkpoints are signed by the new key.
    static func handOver(
        _ s: Surgeon, to signer: Ed25519.PrivateKey = newLogKey, origin: String = "fixture-ledger/handover",
        extra: [Edit] = []
    ) {
        var descriptor = s.json(LedgerLayout.descriptorPath)
        let key = NoteKey(name: origin, type: NoteKey.ed25519, publicKey: signer.publicKey)!
        descriptor.set("log", .string(key.description))
        s.logKey = signer
        let tip = LedgerTrailers(message: s.info(s.tip).message)!
        s.append(
            [.upsert(path: LedgerLayout.descriptorPath, id: s.blob(descriptor), mode: mode)] + extra,
            message: "keys: log handover\n\n" + LedgerTrailers(logSize: tip.logSize, logHead: tip.logHead).text)
    }

    static let logHandover: [Attack] = [
        Attack(
            name: "a log handover, then a batch under the new log key", policy: "CheckpointPolicy",
            conformance: "LogHandover", accepted: true
        ) { s in
            handOver(s)
            appendEntries(s) { last in [write(7, after: last, by: verdicts[0].ref.hex, at: "2026-08-12T02:01:30Z")] }
        },
        Attack(
            name: "the descriptor's log changed by an ordinary commit", policy: "DescriptorPolicy",
            conformance: "LogHandoverInAnOrdinaryCommit"
        ) { s in
            let next = write(7, after: entry(s, 6))
            handOver(s, extra: [.upsert(path: entryPath(7), id: s.blob(next.json), mode: mode)])
        },
        Attack(
            name: "a handover back to a retired log key", policy: "DescriptorPolicy",
            conformance: "LogHandoverBackToARetiredKey"
        ) { s in
            handOver(s)
            handOver(s, to: FixtureLedger.signer1, origin: "fixture-ledger/again")
        },
        Attack(
            name: "a handover checkpoint with another size", policy: "CheckpointPolicy",
            conformance: "LogHandoverOtherSize"
        ) { s in
            s.checkpointMaker = { log, key in
                let head = TreeHead(origin: key.name, size: log.size + 1, root: log.root)
                return Array(
                    SignedNote(
                        text: head.text, signatures: [SignedNote.sign(head.text, name: key.name, with: newLogKey)!]
                    ).formatted.utf8)
            }
            handOver(s)
        },
        Attack(
            name: "a checkpoint after the handover signed by the old log key", policy: "CheckpointPolicy",
            conformance: "LogHandoverThenOldKey"
        ) { s in
            let old = try! LedgerDescriptor(json: s.json(LedgerLayout.descriptorPath)).log!
            handOver(s)
            s.checkpointMaker = { log, _ in
                Array(try! LedgerLog.checkpoint(log, key: old, signer: FixtureLedger.signer1).formatted.utf8)
            }
            appendEntries(s) { last in [write(7, after: last, by: verdicts[0].ref.hex, at: "2026-08-12T02:01:30Z")] }
        },
    ]

    static let checkpoints: [Attack] = [
        Attack(name: "a checkpoint whose root is not the root of the ledger's leaves", policy: "CheckpointPolicy") {
            s in
            addWithCheckpoint(s) { log, key in
                note(
                    TreeHead(origin: key.name, size: log.size, root: Merkle.emptyRoot), key,
                    signedBy: FixtureLedger.signer1)
            }
        },
        Attack(name: "a checkpoint that leaves out the commit's own leaves", policy: "CheckpointPolicy") { s in
            let before = try! ReplayState.transparencyLog(at: s.tip, repository: s.repository)
            addWithCheckpoint(s) { _, key in
                note(
                    TreeHead(origin: key.name, size: before.size, root: before.root), key,
                    signedBy: FixtureLedger.signer1)
            }
        },
        Attack(name: "a checkpoint signed by a key the descriptor does not declare", policy: "CheckpointPolicy") { s in
            addWithCheckpoint(s) { log, key in
                note(TreeHead(origin: key.name, size: log.size, root: log.root), key, signedBy: stranger)
            }
        },
        Attack(name: "a checkpoint whose log signature does not verify", policy: "CheckpointPolicy") { s in
            addWithCheckpoint(s) { log, key in
                var bytes = note(
                    TreeHead(origin: key.name, size: log.size, root: log.root), key, signedBy: FixtureLedger.signer1)
                let text = String(decoding: bytes, as: UTF8.self)
                let signature = text.split(separator: " ").last!.dropLast()
                var raw = Base64.decode(String(signature))!
                raw[10] ^= 1
                bytes = Array(text.replacingOccurrences(of: String(signature), with: Base64.encode(raw)).utf8)
                return bytes
            }
        },
        // docs/FORMAT.md "Checkpoints": exactly one signature line, the log key's, which verifies.
        Attack(
            name: "a checkpoint whose first log-key signature is bad and second good", policy: "CheckpointPolicy",
            conformance: "CheckpointBadThenGoodSignature"
        ) { s in
            addWithCheckpointLines(s) { text, good in
                var flipped = good.payload
                flipped[10] ^= 1
                return [SignedNote.Signature(name: good.name, keyID: good.keyID, payload: flipped), good]
            }
        },
        Attack(
            name: "a checkpoint with a second signature line by an unknown key", policy: "CheckpointPolicy",
            conformance: "CheckpointUnknownSignature"
        ) { s in
            addWithCheckpointLines(s) { text, good in
                [good, SignedNote.sign(text, name: "other.example/log", with: stranger)!]
            }
        },
        Attack(name: "a checkpoint under another origin", policy: "CheckpointPolicy") { s in
            addWithCheckpoint(s) { log, key in
                note(
                    TreeHead(origin: "other.example/log", size: log.size, root: log.root), key,
                    signedBy: FixtureLedger.signer1, as: "other.example/log")
            }
        },
        Attack(name: "a commit that adds records but not its checkpoint", policy: "CheckpointPolicy") { s in
            addWithCheckpoint(s, nil)
        },
        Attack(name: "a cosignature of a checkpoint the ledger never had", policy: "CosignaturePolicy") { s in
            let witness = NoteKey(name: "auditor.example", type: NoteKey.cosignatureV1, publicKey: stranger.publicKey)!
            let body = TreeHead(origin: "fixture-ledger", size: 1, root: Merkle.emptyRoot).text
            let line = Cosignature.sign(body: body, time: 1_786_000_000, name: witness.name, with: stranger)!
            let note = SignedNote(text: body, signatures: [line])
            add(s, [(LedgerLayout.cosignaturePath(keyID: witness.keyID), Array(note.formatted.utf8))])
        },
        Attack(name: "a cosignature stored under another witness's key ID", policy: "CosignaturePolicy") { s in
            let witness = NoteKey(name: "auditor.example", type: NoteKey.cosignatureV1, publicKey: stranger.publicKey)!
            let body = try! SignedNote(parsing: String(decoding: s.file(LedgerLayout.checkpointPath), as: UTF8.self))
                .text
            let line = Cosignature.sign(body: body, time: 1_786_000_000, name: witness.name, with: stranger)!
            let note = SignedNote(text: body, signatures: [line])
            add(s, [(LedgerLayout.cosignaturePath(keyID: witness.keyID ^ 1), Array(note.formatted.utf8))])
        },
    ]

    // MARK: - Replaced cosignatures (docs/FORMAT.md "Witnesses"): every rule an added one meets, and never earlier

    static let witness = NoteKey(name: "auditor.example", type: NoteKey.cosignatureV1, publicKey: stranger.publicKey)!
    static let witnessPath = LedgerLayout.cosignaturePath(keyID: witness.keyID)

    /// The witness's cosignature file of the tip's checkpoint (or `body`), dated `offset` seconds after the
    /// tip's commit, signed under `name` by `key` (default: the corpus's witness).
    static func cosignature(
        _ s: Surgeon, offset: Int64, body: String? = nil, name: String = witness.name,
        key: Ed25519.PrivateKey = stranger
    ) -> [UInt8] {
        let text =
            body
            ?? (try! SignedNote(parsing: String(decoding: s.file(LedgerLayout.checkpointPath), as: UTF8.self)).text)
        let line = Cosignature.sign(body: text, time: s.info(s.tip).time + offset, name: name, with: key)!
        return Array(SignedNote(text: text, signatures: [line]).formatted.utf8)
    }

    /// Stores the witness's valid cosignature of the tip's checkpoint, then a commit that replaces it with
    /// what `replacement` makes.
    static func replaceCosignature(_ s: Surgeon, _ replacement: (Surgeon) -> [UInt8]) {
        add(s, [(witnessPath, cosignature(s, offset: 30))])
        add(s, [(witnessPath, replacement(s))])
    }

    static let replacedCosignatures: [Attack] = [
        Attack(
            name: "a cosignature replaced by garbage", policy: "CosignaturePolicy",
            conformance: "CosignatureReplacedByGarbage"
        ) { s in
            replaceCosignature(s) { _ in Array("garbage\n".utf8) }
        },
        Attack(
            name: "a cosignature replaced by one of an older checkpoint", policy: "CosignaturePolicy",
            conformance: "CosignatureReplacedByStale"
        ) { s in
            let old = try! SignedNote(parsing: String(decoding: s.file(LedgerLayout.checkpointPath), as: UTF8.self))
                .text
            add(s, [(witnessPath, cosignature(s, offset: 30))])
            addMandate(s, "enrollment:device-31") { newRecordPath(Mandate.self, $0) }
            add(s, [(witnessPath, cosignature(s, offset: 30, body: old))])
        },
        Attack(
            name: "a cosignature replaced by one dated before it", policy: "CosignaturePolicy",
            conformance: "CosignatureReplacedByEarlier"
        ) { s in
            replaceCosignature(s) { s in cosignature(s, offset: -60) }  // dated 30 s before the one it replaces
        },
        Attack(name: "a cosignature replaced by one dated after its commit", policy: "CosignaturePolicy") { s in
            replaceCosignature(s) { s in cosignature(s, offset: 86_400) }
        },
        Attack(name: "a cosignature replaced by another witness's line", policy: "CosignaturePolicy") { s in
            replaceCosignature(s) { s in cosignature(s, offset: 30, name: "ngo.example", key: signer2) }
        },
        Attack(
            name: "a witness's later cosignature of a later checkpoint replaces its earlier one",
            policy: "CosignaturePolicy", conformance: "CosignatureReplacedByLater", accepted: true
        ) { s in
            add(s, [(witnessPath, cosignature(s, offset: 30))])
            addMandate(s, "enrollment:device-32") { newRecordPath(Mandate.self, $0) }
            add(s, [(witnessPath, cosignature(s, offset: 30))])
        },
    ]

    static let limits: [Attack] = [
        Attack(name: "oversized record", policy: "RecordLimitsPolicy") { s in
            let big = "{\"a\":\"" + String(repeating: "x", count: Limits.maxRecordBytes) + "\"}"
            add(s, [(newRecordPath(Verdict.self, ContentAddress(hashing: [5])), Array(big.utf8))])
        },
        Attack(name: "huge folder", policy: "RecordLimitsPolicy") { s in
            let blob = s.blob(Array("{}".utf8))
            s.append((0...CommitLoader.maxTreeEntries).map { .upsert(path: "junk/\($0).json", id: blob, mode: mode) })
        },
    ]
}
