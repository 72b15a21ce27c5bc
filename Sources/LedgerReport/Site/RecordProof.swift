internal import LedgerFormat
import LedgerVerifier

/// What lets a page check its own records in the reader's browser (``VerifyScript``): for each record its
/// leaf index and RFC 6962 inclusion proof (docs/FORMAT.md, "Transparency") to the tip's checkpoint, and on
/// each page that checkpoint's signed note, the log key it is checked against and the witnesses' keys.
///
/// The proofs are `prove`'s (``LedgerLogView``'s leaves and checkpoint, the PATH recursion of ``Merkle``), made
/// from ``MerkleLevels`` so that proving every record stays O(n log² n). The record's bytes are not repeated:
/// the page's canonical JSON (`record-bytes`) is what the script hashes, so what a reader reads is what is
/// checked.
final class RecordProofs {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        /// The witnesses asked for did not cosign the tip's checkpoint (`verify`'s "not witnessed").
        let notWitnessed: Bool
    }

    let logKey: NoteKey
    let witnesses: [NoteKey]
    let quorum: Int
    /// The tip's checkpoint note with the witnesses' cosignatures the ledger stores.
    let checkpoint: String
    let head: TreeHead
    private let indexByPath: [String: Int]
    private let tree: MerkleLevels

    /// The proofs of `log`, after checking that every record and write-log entry of `contents` is the file
    /// its leaf states and that the checkpoint passes `check-proof`'s check (``ProofCheck``) under the log key
    /// and, with `witnesses`, at least `quorum` of their cosignatures: a report whose pages would say
    /// "failed" is not written.
    init(log: LedgerLogView, contents: LedgerContents, witnesses: [NoteKey], quorum: Int) throws(Failure) {
        guard let checkpoint = log.cosignedTip, let tip = log.tip, tip.size == log.size, log.size > 0 else {
            throw Failure(description: "the ledger's log has no checkpoint of its tip", notWitnessed: false)
        }
        logKey = log.key
        self.witnesses = witnesses
        self.quorum = quorum
        self.checkpoint = checkpoint
        tree = MerkleLevels(leaves: log.tiles.levels[0])
        var indexByPath: [String: Int] = [:]
        for (index, path) in log.paths.enumerated() { indexByPath[path] = index }
        self.indexByPath = indexByPath
        let sample = TlogProof(
            extra: log.entries[0], index: 0, hashes: tree.inclusionProof(index: 0), checkpoint: checkpoint)
        do {
            head = try ProofCheck.check(sample, logKey: log.key, witnesses: witnesses, quorum: quorum).head
        } catch {
            throw Failure(
                description: "the tip's checkpoint does not check: \(error.description)",
                notWitnessed: !witnesses.isEmpty && checkpointIsSigned(checkpoint, by: log.key))
        }
        var shown = contents.records.map { ($0.path, $0.record.storedBytes) }
        shown += contents.entries.map { (LedgerLayout.logEntryPath($0.sequence), RecordBlock.bytes(of: $0)) }
        for (path, bytes) in shown {
            guard let index = indexByPath[path],
                log.entries[index] == LedgerLog.entry(path: path, sha256: SHA256.hash(bytes))
            else {
                throw Failure(
                    description: "\(path): the bytes the report shows are not the file the log states",
                    notWitnessed: false)
            }
        }
    }

    /// The page script's file name (at the site's root).
    static let script = "verify.js"

    /// A record's proof, inside its `.record` block: its path, leaf index and inclusion proof. Empty for a
    /// path that is no leaf (none is: every record and write-log entry is one).
    func proof(path: String) -> String {
        guard let index = indexByPath[path] else { return "" }
        let hashes = tree.inclusionProof(index: index).map { Base64.encode($0.bytes) }.joined(separator: "\n")
        return """
            <details class="log-proof" data-leaf-index="\(index)" data-path="\(HTML.escape(path))"><summary>Its place in the transparency log</summary>
            <p>Leaf \(index) of \(head.size); inclusion proof (RFC 6962):</p>
            <pre class="proof-hashes">\(hashes)</pre>
            </details>

            """
    }

    /// The page's box: the result (`#proof-status`, set by the script), the checkpoint note and the keys
    /// it is checked against.
    func pageSection(depth: Int) -> String {
        let root = String(repeating: "../", count: depth)
        let witnessed =
            witnesses.isEmpty
            ? ""
            : " and by at least \(quorum) of the witnesses "
                + witnesses.map { "<code>\(HTML.escape($0.description))</code>" }.joined(separator: ", ")
        return """
            <section class="browser-check" id="log-check" aria-label="Checked in your browser" data-log-key="\(HTML.escape(logKey.description))" data-witnesses="\(HTML.escape(witnesses.map(\.description).joined(separator: " ")))" data-quorum="\(quorum)">
            <p id="proof-status" role="status" data-status="unchecked">Not checked: this page checks its records in your browser with JavaScript, which has not run.</p>
            <details><summary>What your browser checks, against which key</summary>
            <p>Each record's bytes are hashed into its log entry, its inclusion proof is followed to the root of this checkpoint, and the checkpoint's signature is checked under the log key <code>\(HTML.escape(logKey.description))</code> (the ledger descriptor's <code>log</code>)\(witnessed). Compare that key with the one you trust; the page proves nothing about a key you have not compared (<a href="\(root)verify.html#in-your-browser">more</a>).</p>
            <pre class="checkpoint-note">\(HTML.text(checkpoint))</pre>
            </details>
            </section>

            """
    }
}

/// Whether `note` carries a valid signature by `key` (a checkpoint that fails only for want of witnesses).
private func checkpointIsSigned(_ note: String, by key: NoteKey) -> Bool {
    (try? SignedNote(parsing: note))?.isSigned(by: key) ?? false
}

extension RecordProofs {
    /// The proofs of a verified ledger's records, nil when its descriptor declares no transparency log
    /// (then the pages carry no check of their own, and `--witness` is refused).
    static func make(_ ledger: AuditedLedger, contents: LedgerContents, witnesses: [NoteKey], quorum: Int)
        throws(PublicReport.Failure) -> RecordProofs?
    {
        let log: LedgerLogView?
        do { log = try ledger.history.transparencyLog() } catch { throw .init(description: "\(error)") }
        guard let log else {
            guard witnesses.isEmpty else {
                throw .init(description: "the ledger declares no transparency log (log): there is nothing to witness")
            }
            return nil
        }
        do {
            return try RecordProofs(log: log, contents: contents, witnesses: witnesses, quorum: quorum)
        } catch {
            throw .init(description: error.description, notWitnessed: error.notWitnessed)
        }
    }
}

/// The records an authority's page is drawn from — its manifests (the classes it shows), revocations and
/// compromise reports — shown in full with their proofs, so that the page checks what it states.
enum AuthoritySources {
    static func records(_ authority: AuthorityRecord, model: ReportModel) -> [LedgerContents.Stored] {
        authority.manifests.compactMap { model.stored(AuthorityManifest.self, $0.address) }
            + authority.revocations.compactMap { model.stored(RevocationDetermination.self, $0.address) }
            + authority.compromiseReports.compactMap { model.stored(CompromiseReport.self, $0.address) }
    }

    /// The section of `records`, empty when there are none or the report has no log to check them in.
    static func section(_ records: [LedgerContents.Stored], proofs: RecordProofs?) -> String {
        guard let proofs, !records.isEmpty else { return "" }
        return "<section aria-labelledby=\"sources\"><h2 id=\"sources\">The records this page is drawn from</h2>\n"
            + records.map { RecordBlock.render($0, title: "\($0.kindName) \($0.address.hex)", proofs: proofs) }.joined()
            + "</section>\n"
    }
}
