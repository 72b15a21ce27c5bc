import LedgerFormat
import LedgerStore
import LedgerWriter

/// Compares one read of the store with the ledger's tip and turns what the ledger lacks into events.
///
/// What was imported is read from the ledger itself — its record index (by content address) and its write
/// log's size and head — never from a side file: a pass after a crash sees exactly what was published.
/// A row the ledger already holds must still be what was imported, or the store is refused.
struct StoreImport {
    let snapshot: StoreSnapshot
    let state: LedgerState
    let countersigner: InterfaceCountersigner
    /// The store's path, for the source names findings carry.
    let storePath: String

    /// Rows already in the ledger, by table.
    var alreadyImported = (mandates: 0, verdicts: 0, writes: 0)

    /// The pending events: records (mandates, verdicts) and write rows, each in store order.
    mutating func events() throws(FollowError) -> (records: [FollowEvent], writes: [FollowEvent]) {
        var records: [FollowEvent] = []
        var mandates: [String: (mandate: Mandate, manifest: AuthorityManifest?)] = [:]
        for row in snapshot.mandates {
            let (mandate, manifest) = try decode(row)
            mandates[row.ref] = (mandate, manifest)
            if try isImported(mandate, row: row) {
                alreadyImported.mandates += 1
                continue
            }
            var items: [BatchItem] = []
            if let manifest { items.append(item("mandates \(row.ref)", .manifest(manifest, detachedSignature: nil))) }
            items.append(item("mandates \(row.ref)", .record(mandate)))
            records.append(
                FollowEvent(
                    kind: .mandate, time: try time(row.createdAt, "mandates \(row.ref)", "created_at"),
                    items: items, entry: nil))
        }
        for row in snapshot.verdicts {
            let name = "verdicts \(row.ref)"
            let verdict = try decode(row)
            guard let (mandate, manifest) = mandates[verdict.mandateRef.hex] else {
                throw .refusedStore(
                    row: name, rule: "store.missingMandate",
                    evidence: "its mandate \(verdict.mandateRef.hex) is not in the store's mandates")
            }
            guard let manifest else {
                throw .refusedStore(
                    row: name, rule: "store.missingManifest",
                    evidence: "mandate \(verdict.mandateRef.hex) has no manifest_raw: the verdict cannot be "
                        + "judged without the manifest it was validated against (onym-wire §5)")
            }
            let receivedAt = try time(row.receivedAt, name, "received_at")
            // The receipt the backend answered (onym-wire §3.6, §4.1): validation at the receipt time decides
            // `stored` (a ban before its executeAfter) or `queued`. A verdict that fails validation is the
            // ledger's policies' to refuse, by name.
            let status =
                (try? VerdictValidator.validate(verdict, mandate: mandate, manifest: manifest, now: receivedAt).get())?
                .receiptStatus ?? .queued
            let receipt = VerdictReceipt(verdictRef: verdict.ref, status: status, receivedAt: receivedAt)
            if try isImported(verdict, receipt: receipt, name: name) {
                alreadyImported.verdicts += 1
                continue
            }
            records.append(
                FollowEvent(
                    kind: .verdict, time: receivedAt,
                    items: [
                        item(name, .manifest(manifest, detachedSignature: nil)), item(name, .record(verdict)),
                        item(name, .record(receipt)),
                    ], entry: nil))
        }
        alreadyImported.writes = Int(state.trailers.logSize)
        var writes: [FollowEvent] = []
        for row in snapshot.newWriteRows {
            let name = "write_log sequence \(row.sequence)"
            let entry: WriteLogEntry
            do {
                entry = try WriteLogEntry(
                    sequence: row.sequence, recordedAt: row.recordedAt, deviceBinding: WireString(row.deviceBinding),
                    authorizedBy: WireString(row.authorizedBy), caseOpen: row.caseOpen, banned: row.banned,
                    outcome: row.outcome,
                    fieldsWritten: row.fieldsWritten, previousHash: row.previousHash)
            } catch {
                throw .refusedStore(row: name, rule: "store.writeLog", evidence: error.description)
            }
            writes.append(FollowEvent(kind: .write, time: entry.recordedAt, items: [], entry: entry))
        }
        return (records, writes)
    }

    private func item(_ row: String, _ content: BatchItem.Content) -> BatchItem {
        BatchItem(source: "\(storePath): \(row)", content: content)
    }

    private func time(_ text: String, _ row: String, _ column: String) throws(FollowError) -> Instant {
        guard let instant = Instant.parse(text) else {
            throw .refusedStore(row: row, rule: "store.timestamp", evidence: "\(column) '\(text)' is not RFC 3339")
        }
        return instant
    }

    // MARK: - Decoding

    private func decode(_ row: StoreMandate) throws(FollowError) -> (Mandate, AuthorityManifest?) {
        let name = "mandates \(row.ref)"
        let mandate: Mandate
        do {
            mandate = try countersigner.countersigned(row.raw)
        } catch {
            throw .refusedStore(row: name, rule: "store.mandate", evidence: "raw: \(error.description)")
        }
        guard mandate.ref.hex == row.ref else {
            throw .refusedStore(
                row: name, rule: "store.contentAddress",
                evidence: "raw's mandateRef is \(mandate.ref.hex), not the row's mandate_ref")
        }
        guard let bytes = row.manifestRaw else { return (mandate, nil) }
        let manifest: AuthorityManifest
        do {
            manifest = try AuthorityManifest(rawBytes: bytes)
        } catch {
            throw .refusedStore(row: name, rule: "store.manifest", evidence: "manifest_raw: \(error.description)")
        }
        guard manifest.hash == mandate.manifestHash else {
            throw .refusedStore(
                row: name, rule: "store.manifest",
                evidence: "manifest_raw hashes to \(manifest.hash.hex), the mandate pins \(mandate.manifestHash.hex)")
        }
        return (mandate, manifest)
    }

    private func decode(_ row: StoreVerdict) throws(FollowError) -> Verdict {
        let name = "verdicts \(row.ref)"
        let verdict: Verdict
        do {
            verdict = try Verdict(json: try CanonicalJSON.parse(row.raw))
        } catch {
            throw .refusedStore(row: name, rule: "store.verdict", evidence: "raw: \(error.description)")
        }
        guard verdict.ref.hex == row.ref else {
            throw .refusedStore(
                row: name, rule: "store.contentAddress",
                evidence: "raw's verdictRef is \(verdict.ref.hex), not the row's verdict_ref")
        }
        guard verdict.mandateRef.hex == row.mandateRef else {
            throw .refusedStore(
                row: name, rule: "store.verdict",
                evidence: "raw names mandate \(verdict.mandateRef.hex), the row's mandate_ref is \(row.mandateRef)")
        }
        return verdict
    }

    // MARK: - What the ledger holds

    /// A mandate is imported when the ledger holds its mandateRef. The reference stores mandates with
    /// `INSERT OR REPLACE`: a client that countersigns the same mandate again replaces `raw`, and a
    /// randomized signer (CryptoKit) gives another user signature over the same bytes. The mandateRef covers
    /// everything the mandate says, so another valid user signature is the same mandate (the ledger keeps the
    /// first copy); one that does not verify is a changed row (docs/DECISIONS.md).
    private func isImported(_ mandate: Mandate, row: StoreMandate) throws(FollowError) -> Bool {
        guard let stored = try ledgerBytes(like: mandate, row: "mandates \(row.ref)") else { return false }
        if stored == mandate.storedBytes || mandate.userSignatureStatus == .valid { return true }
        throw .refusedStore(
            row: "mandates \(row.ref)", rule: "store.changedImportedRow",
            evidence: "the ledger holds this mandate; the store's raw now carries a user signature that does not "
                + "verify: \(String(decoding: row.raw, as: UTF8.self))")
    }

    /// A verdict is imported when the ledger holds it (with its receipt, published in the same commit); both
    /// must be what the store says now.
    private func isImported(_ verdict: Verdict, receipt: VerdictReceipt, name: String) throws(FollowError) -> Bool {
        guard let stored = try ledgerBytes(like: verdict, row: name) else { return false }
        guard stored == verdict.storedBytes else {
            throw .refusedStore(
                row: name, rule: "store.changedImportedRow",
                evidence: "the ledger holds \(String(decoding: stored, as: UTF8.self)); the store's raw is now "
                    + String(decoding: verdict.storedBytes, as: UTF8.self))
        }
        let storedReceipt = try ledgerBytes(like: receipt, row: name)
        guard storedReceipt == receipt.storedBytes else {
            let held = storedReceipt.map { String(decoding: $0, as: UTF8.self) } ?? "no receipt"
            throw .refusedStore(
                row: name, rule: "store.changedImportedRow",
                evidence: "the ledger holds \(held) for this verdict; the store's received_at makes it "
                    + String(decoding: receipt.storedBytes, as: UTF8.self))
        }
        return true
    }

    private func ledgerBytes(like record: some StoredRecord, row: String) throws(FollowError) -> [UInt8]? {
        do {
            return try state.storedBytes(like: record)
        } catch {
            throw .append(error, batch: row)
        }
    }
}
