import LedgerFormat

/// Reads a reference backend's SQLite store (onym-wire §5) in one read transaction, checking the write log's
/// chain (§3.14) from `genesis` as it goes.
public enum BackendStore {
    /// The tables and columns `follow` reads; a store without them is not a reference store.
    static let required: [String: Set<String>] = [
        "mandates": ["mandate_ref", "raw", "created_at", "manifest_raw"],
        "verdicts": ["verdict_ref", "mandate_ref", "raw", "received_at"],
        "write_log": [
            "sequence", "recorded_at", "device_binding", "authorized_by", "case_open", "banned", "outcome",
            "previous_hash", "entry_hash",
        ],
    ]

    /// Reads the store at `path`.
    /// - Parameters:
    ///   - logSize: the ledger's write-log size: rows up to it are checked (chain, and that row `logSize`
    ///     hashes to `logHead`), rows after it are returned.
    ///   - logHead: the ledger's log head (`genesis` for an empty log).
    public static func read(path: String, logSize: Int64, logHead: String) throws(FollowError) -> StoreSnapshot {
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(readOnly: path)
        } catch {
            throw .unreadableStore(error.description)
        }
        do {
            return try database.readTransaction { () throws -> StoreSnapshot in
                try checkSchema(database)
                var snapshot = StoreSnapshot()
                try readWriteLog(database, logSize: logSize, logHead: logHead, into: &snapshot)
                try readMandates(database, into: &snapshot)
                try readVerdicts(database, into: &snapshot)
                if try database.hasTable("recoveries") {
                    let count = try database.rows("SELECT count(*) AS n FROM recoveries").first?["n"]?.integer
                    snapshot.recoveries = Int(count ?? 0)
                }
                return snapshot
            }
        } catch let error as FollowError {
            throw error
        } catch let error as SQLiteDatabase.Failure {
            throw .unreadableStore(error.description)
        } catch {
            throw .unreadableStore("\(path): \(error)")
        }
    }

    private static func checkSchema(_ database: SQLiteDatabase) throws {
        for (table, columns) in required.sorted(by: { $0.key < $1.key }) {
            guard try database.hasTable(table) else {
                throw FollowError.refusedStore(
                    row: "table \(table)", rule: "store.schema",
                    evidence: "\(database.path) has no table \(table): not a reference backend store (onym-wire §5)")
            }
            let missing = columns.subtracting(try database.columns(of: table))
            guard missing.isEmpty else {
                throw FollowError.refusedStore(
                    row: "table \(table)", rule: "store.schema",
                    evidence: "no column \(missing.sorted().joined(separator: ", ")) (onym-wire §5)")
            }
        }
    }

    // MARK: - Write log

    /// Walks `write_log` by ascending sequence from `genesis`, as the reference's `verify_write_log` does:
    /// sequences gapless from 1, each `previous_hash` the row before's `entry_hash`, each `entry_hash` the
    /// chain hash of its row (`WriteLogEntry.chainHash`, the rule the ledger's own chain policy runs).
    private static func readWriteLog(
        _ database: SQLiteDatabase, logSize: Int64, logHead: String, into snapshot: inout StoreSnapshot
    ) throws {
        let android = try database.columns(of: "write_log").contains("fields_written")
        let columns =
            "sequence, recorded_at, device_binding, authorized_by, case_open, banned, outcome, previous_hash, entry_hash"
            + (android ? ", fields_written" : "")
        var previous = WriteLogEntry.genesis
        var expected: Int64 = 1
        // Streamed: one row in memory at a time, the rows after the ledger's log size kept.
        try database.query("SELECT \(columns) FROM write_log ORDER BY sequence") { values in
            let row = try writeRow(values, android: android)
            let name = "write_log sequence \(row.sequence)"
            guard row.sequence == expected else {
                throw FollowError.refusedStore(
                    row: name, rule: "store.chain",
                    evidence: "the chain is broken at sequence \(expected): sequences run gapless from 1, "
                        + "and the next row is \(row.sequence)")
            }
            guard row.previousHash == previous else {
                throw FollowError.refusedStore(
                    row: name, rule: "store.chain",
                    evidence: "the chain is broken at sequence \(row.sequence): previous_hash \(row.previousHash) "
                        + "is not the entry_hash of the row before, \(previous)")
            }
            let recomputed = WriteLogEntry.chainHash(
                previous: row.previousHash, recordedAt: row.recordedAt, deviceBinding: row.deviceBinding,
                authorizedBy: row.authorizedBy, caseOpen: row.caseOpen, banned: row.banned,
                fieldsWritten: row.fieldsWritten, outcome: row.outcome)
            guard recomputed == row.entryHash else {
                throw FollowError.refusedStore(
                    row: name, rule: "store.chain",
                    evidence: "the chain is broken at sequence \(row.sequence): entry_hash \(row.entryHash) "
                        + "but the row's fields hash to \(recomputed) (onym-wire §3.14)")
            }
            if row.sequence == logSize, row.entryHash != logHead {
                throw FollowError.refusedStore(
                    row: name, rule: "store.changedImportedRow",
                    evidence: "the ledger imported this row with entry_hash \(logHead); the store now holds "
                        + "\(row.entryHash): rows the ledger already holds were changed")
            }
            if row.sequence > logSize { snapshot.newWriteRows.append(row) }
            previous = row.entryHash
            expected += 1
        }
        snapshot.writeLogSize = expected - 1
        snapshot.writeLogHead = previous
        guard snapshot.writeLogSize >= logSize else {
            throw FollowError.refusedStore(
                row: "write_log sequence \(snapshot.writeLogSize + 1)", rule: "store.changedImportedRow",
                evidence: "the ledger holds \(logSize) write-log entries, the store only \(snapshot.writeLogSize): "
                    + "rows the ledger imported are gone from the store")
        }
    }

    private static func writeRow(_ values: [String: SQLiteDatabase.Value], android: Bool) throws(FollowError)
        -> StoreWriteRow
    {
        let sequence = values["sequence"]?.integer ?? 0
        let name = "write_log sequence \(sequence)"
        func text(_ column: String) throws(FollowError) -> String {
            guard let text = values[column]?.text else {
                throw .refusedStore(row: name, rule: "store.schema", evidence: "\(column) is not text")
            }
            return text
        }
        func flag(_ column: String) throws(FollowError) -> Bool {
            guard let value = values[column]?.integer, value == 0 || value == 1 else {
                throw .refusedStore(row: name, rule: "store.schema", evidence: "\(column) is not 0 or 1")
            }
            return value == 1
        }
        return StoreWriteRow(
            sequence: sequence, recordedAt: try text("recorded_at"), deviceBinding: try text("device_binding"),
            authorizedBy: try text("authorized_by"), caseOpen: try flag("case_open"), banned: try flag("banned"),
            outcome: try text("outcome"), fieldsWritten: android ? values["fields_written"]?.text : nil,
            previousHash: try text("previous_hash"), entryHash: try text("entry_hash"))
    }

    // MARK: - Records

    private static func readMandates(_ database: SQLiteDatabase, into snapshot: inout StoreSnapshot) throws {
        try database.query(
            "SELECT mandate_ref, raw, created_at, manifest_raw FROM mandates ORDER BY created_at, mandate_ref"
        ) { values in
            let ref = values["mandate_ref"]?.text ?? "?"
            guard let raw = values["raw"]?.bytes, let createdAt = values["created_at"]?.text else {
                throw FollowError.refusedStore(
                    row: "mandates \(ref)", rule: "store.schema", evidence: "raw or created_at is empty")
            }
            snapshot.mandates.append(
                StoreMandate(ref: ref, raw: raw, createdAt: createdAt, manifestRaw: values["manifest_raw"]?.bytes))
        }
    }

    private static func readVerdicts(_ database: SQLiteDatabase, into snapshot: inout StoreSnapshot) throws {
        try database.query(
            "SELECT verdict_ref, mandate_ref, raw, received_at FROM verdicts ORDER BY received_at, rowid"
        ) { values in
            let ref = values["verdict_ref"]?.text ?? "?"
            guard let raw = values["raw"]?.bytes, let receivedAt = values["received_at"]?.text,
                let mandateRef = values["mandate_ref"]?.text
            else {
                throw FollowError.refusedStore(
                    row: "verdicts \(ref)", rule: "store.schema", evidence: "raw, mandate_ref or received_at is empty")
            }
            snapshot.verdicts.append(StoreVerdict(ref: ref, mandateRef: mandateRef, raw: raw, receivedAt: receivedAt))
        }
    }
}
