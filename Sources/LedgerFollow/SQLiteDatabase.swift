import CSQLite

/// A SQLite database opened **read-only** (`SQLITE_OPEN_READONLY`) through the real library: `follow` never
/// writes to the backend's store. Reads happen inside ``readTransaction(_:)``, one `BEGIN … COMMIT`, so a
/// WAL-mode store the backend keeps writing is read as one consistent snapshot.
final class SQLiteDatabase {
    /// A SQLite failure, with the library's message and the statement or file it concerns.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// One column value as SQLite stores it.
    enum Value: Equatable {
        case null
        case integer(Int64)
        case text(String)
        case blob([UInt8])

        /// Text or blob as bytes (the reference stores `raw` as BLOB; a TEXT value is read as its UTF-8).
        var bytes: [UInt8]? {
            switch self {
            case .blob(let bytes): bytes
            case .text(let text): Array(text.utf8)
            default: nil
            }
        }

        var text: String? {
            switch self {
            case .text(let text): text
            case .blob(let bytes): String(validating: bytes, as: UTF8.self)
            default: nil
            }
        }

        var integer: Int64? {
            if case .integer(let value) = self { return value }
            return nil
        }
    }

    let path: String
    private let handle: OpaquePointer

    /// Opens `path` read-only; a missing file is refused (never created).
    init(readOnly path: String) throws(Failure) {
        self.path = path
        var db: OpaquePointer?
        let status = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close(db)
            throw Failure(description: "\(path): cannot open the store read-only: \(message)")
        }
        handle = db
        // A backend mid-write holds the write lock only briefly; a reader of a WAL store is never blocked by
        // it, but a rollback-journal store may be: wait for it rather than fail the pass.
        sqlite3_busy_timeout(db, 10_000)
    }

    deinit { sqlite3_close(handle) }

    /// Runs `body` inside one read transaction (`BEGIN` … `COMMIT`): every query in it sees the same
    /// snapshot of the store, whatever the backend commits meanwhile.
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Whether a table exists in the store's schema.
    func hasTable(_ name: String) throws -> Bool {
        !(try rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '\(name)'")).isEmpty
    }

    /// The column names of `table`.
    func columns(of table: String) throws -> Set<String> {
        Set(try rows("PRAGMA table_info(\(table))").compactMap { $0["name"]?.text })
    }

    /// Every row `sql` returns, as column name → value.
    func rows(_ sql: String) throws -> [[String: Value]] {
        var rows: [[String: Value]] = []
        try query(sql) { rows.append($0) }
        return rows
    }

    /// Calls `each` for every row `sql` returns, one row in memory at a time.
    func query(_ sql: String, _ each: ([String: Value]) throws -> Void) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure(sql)
        }
        defer { sqlite3_finalize(statement) }
        let count = sqlite3_column_count(statement)
        let names = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return }
            guard step == SQLITE_ROW else { throw failure(sql) }
            var row: [String: Value] = [:]
            for column in 0..<count {
                row[names[Int(column)]] = Self.value(statement, column)
            }
            try each(row)
        }
    }

    private func execute(_ sql: String) throws(Failure) {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    private func failure(_ sql: String) -> Failure {
        Failure(description: "\(path): \(String(cString: sqlite3_errmsg(handle))) (in \(sql))")
    }

    private static func value(_ statement: OpaquePointer, _ column: Int32) -> Value {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_NULL: return .null
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default:
            guard let text = sqlite3_column_text(statement, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        }
    }
}
