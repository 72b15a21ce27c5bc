public import LedgerFormat

/// Builds a reference backend's SQLite store (onym-wire §5, `apple/src/store.rs`) as SQL text for the stock
/// `sqlite3` tool: the tables and columns the backend creates, rows as the backend writes them — mandates
/// with the countersign request body (`raw`, the user's signature only), verdicts re-encoded with sorted keys
/// and their signature, the write log hash-chained from `genesis` (§3.14). Tests run the script with
/// `sqlite3 DB ".read FILE"`: a real store made by another process, never hand-made bytes.
public struct BackendStoreScript: Sendable {
    /// The reference schema (§5), in WAL mode as the backend runs it.
    public static let schema = """
        PRAGMA journal_mode=WAL;
        CREATE TABLE IF NOT EXISTS enrollments (device_binding TEXT PRIMARY KEY, user_key TEXT NOT NULL UNIQUE,
          created_at TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS mandates (mandate_ref TEXT PRIMARY KEY, user_key TEXT NOT NULL,
          authority TEXT NOT NULL, device_binding TEXT NOT NULL, manifest_hash TEXT NOT NULL, classes TEXT NOT NULL,
          raw BLOB NOT NULL, created_at TEXT NOT NULL, manifest_raw BLOB);
        CREATE TABLE IF NOT EXISTS seen_signatures (signature TEXT PRIMARY KEY, seen_at TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS verdicts (verdict_ref TEXT PRIMARY KEY, case_id TEXT NOT NULL,
          mandate_ref TEXT NOT NULL, device_binding TEXT NOT NULL, disposition TEXT NOT NULL, ban_expires TEXT,
          execute_after TEXT, executed INTEGER NOT NULL DEFAULT 0, superseded INTEGER NOT NULL DEFAULT 0,
          raw BLOB NOT NULL, received_at TEXT NOT NULL, decided_at TEXT, decided_at_seconds INTEGER,
          decided_at_nanos INTEGER);
        CREATE TABLE IF NOT EXISTS recoveries (grant_ref TEXT PRIMARY KEY, case_id TEXT NOT NULL,
          from_binding TEXT NOT NULL, to_binding TEXT NOT NULL, recovered_at TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS write_log (sequence INTEGER PRIMARY KEY AUTOINCREMENT, recorded_at TEXT NOT NULL,
          device_binding TEXT NOT NULL, authorized_by TEXT NOT NULL, case_open INTEGER NOT NULL,
          banned INTEGER NOT NULL, outcome TEXT NOT NULL, previous_hash TEXT NOT NULL, entry_hash TEXT NOT NULL);

        """

    /// The statements not yet taken (``take()``).
    public private(set) var statements: [String] = []
    /// The write log's head and size after the rows added so far.
    public private(set) var head = WriteLogEntry.genesis
    public private(set) var size: Int64 = 0
    private var enrolled: Set<WireString> = []

    /// A script that starts with the schema (`withSchema`), or continues a store made earlier.
    public init(withSchema: Bool = true) {
        schemaPending = withSchema
    }

    private var schemaPending: Bool

    /// The statements so far as one transaction (after the schema, the first time: a store changes its
    /// journal mode outside a transaction), and starts over; the next rows continue the same chain.
    public mutating func take() -> String {
        defer {
            statements = []
            schemaPending = false
        }
        return (schemaPending ? Self.schema : "") + "BEGIN;\n" + statements.joined(separator: "\n") + "\nCOMMIT;\n"
    }

    /// A countersigned mandate as the backend stores it: `raw` is the request body, the user's signature
    /// only; the device is enrolled first when it is new.
    public mutating func mandate(_ mandate: JSONObject, createdAt: String, manifest: [UInt8]? = nil) {
        var request = mandate
        if case .array(let signatures)? = mandate["signatures"] {
            request.set("signatures", .array(Array(signatures.prefix(1))))
        }
        let parsed = try! Mandate(json: request)
        if enrolled.insert(parsed.deviceBinding).inserted {
            statements.append(
                "INSERT OR IGNORE INTO enrollments VALUES (\(Self.text(parsed.deviceBinding)), "
                    + "\(Self.text(parsed.userKey)), \(Self.text(createdAt)));")
        }
        statements.append(
            "INSERT OR REPLACE INTO mandates VALUES (\(Self.text(parsed.ref.hex)), \(Self.text(parsed.userKey)), "
                + "\(Self.text(parsed.authority)), \(Self.text(parsed.deviceBinding)), "
                + "\(Self.text(parsed.manifestHash.hex)), \(Self.text(parsed.classes.texts.joined(separator: ","))), "
                + "\(Self.blob(CanonicalJSON.encode(request))), \(Self.text(createdAt)), "
                + "\(manifest.map(Self.blob) ?? "NULL"));")
    }

    /// Attaches the consented manifest to a mandate, write-once, as the first verdict's arrival does.
    public mutating func attachManifest(_ bytes: [UInt8], mandateRef: String) {
        statements.append(
            "UPDATE mandates SET manifest_raw = \(Self.blob(bytes)) WHERE mandate_ref = \(Self.text(mandateRef)) "
                + "AND manifest_raw IS NULL;")
    }

    /// A verdict as `receive_verdict` stores it: the sorted-key re-encoding with its signature; a
    /// re-delivery is a no-op by verdictRef (`INSERT OR IGNORE`).
    public mutating func verdict(_ verdict: JSONObject, receivedAt: String) {
        let parsed = try! Verdict(json: verdict)
        statements.append(
            "INSERT OR IGNORE INTO verdicts (verdict_ref, case_id, mandate_ref, device_binding, disposition, "
                + "ban_expires, execute_after, raw, received_at, decided_at) VALUES (\(Self.text(parsed.ref.hex)), "
                + "\(Self.text(parsed.caseId)), \(Self.text(parsed.mandateRef.hex)), "
                + "\(Self.text(parsed.deviceBinding)), \(Self.text(parsed.disposition.rawValue)), "
                + "\(parsed.banExpires.map { Self.text($0.rfc3339) } ?? "NULL"), "
                + "\(parsed.executeAfter.map { Self.text($0.rfc3339) } ?? "NULL"), "
                + "\(Self.blob(CanonicalJSON.encode(verdict))), \(Self.text(receivedAt)), "
                + "\(Self.text(parsed.decidedAt.rfc3339)));")
    }

    /// A write-log row, chained to the one before (`append_write_log`).
    public mutating func write(
        recordedAt: String, deviceBinding: String, authorizedBy: String, caseOpen: Bool, banned: Bool,
        outcome: String = "ok"
    ) {
        let entry = try! WriteLogEntry(
            sequence: size + 1, recordedAt: recordedAt, deviceBinding: WireString(deviceBinding),
            authorizedBy: WireString(authorizedBy),
            caseOpen: caseOpen, banned: banned, outcome: outcome, previousHash: head)
        statements.append(
            "INSERT INTO write_log VALUES (\(entry.sequence), \(Self.text(recordedAt)), \(Self.text(deviceBinding)), "
                + "\(Self.text(authorizedBy)), \(caseOpen ? 1 : 0), \(banned ? 1 : 0), \(Self.text(outcome)), "
                + "\(Self.text(head)), \(Self.text(entry.entryHash)));")
        head = entry.entryHash
        size += 1
    }

    /// A recovery (onym-wire §5 `recoveries`: "recovery re-binds verdicts and mandates from one binding to another
    /// in one transaction"; not a write-log row): its row, with the grant's `grant_ref` only, and the binding's
    /// verdict and mandate rows moved to the new binding (their `raw` bytes unchanged).
    public mutating func recovery(grantRef: String, caseId: String, from: String, to: String, at: String) {
        statements.append(
            "INSERT INTO recoveries VALUES (\(Self.text(grantRef)), \(Self.text(caseId)), \(Self.text(from)), "
                + "\(Self.text(to)), \(Self.text(at)));")
        for table in ["verdicts", "mandates"] {
            statements.append(
                "UPDATE \(table) SET device_binding = \(Self.text(to)) WHERE device_binding = \(Self.text(from));")
        }
    }

    /// Any other statement (a test that breaks the store on purpose).
    public mutating func raw(_ sql: String) { statements.append(sql) }

    /// A SQL string literal.
    public static func text(_ value: String) -> String { "'" + value.replacingQuote() + "'" }

    public static func text(_ value: WireString) -> String { text(value.text) }

    /// A SQL blob literal.
    public static func blob(_ bytes: [UInt8]) -> String { "X'" + Hex.encode(bytes) + "'" }
}

extension String {
    fileprivate func replacingQuote() -> String {
        var out = ""
        for character in self {
            out.append(character)
            if character == "'" { out.append("'") }
        }
        return out
    }
}
