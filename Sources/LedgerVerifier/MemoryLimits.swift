#if canImport(Glibc)
    import Glibc
#endif

/// How much of the state that grows with the ledger a verify run holds in memory: past these counts, the
/// record index and the binding table are each kept in a table in `folder`, read with `pread` (docs/DECISIONS.md,
/// "A long run keeps its growing state in tables"). The defaults are above what a ledger of 10^6 write
/// entries holds, so runs of that size never spill.
public struct MemoryLimits: Sendable {
    /// Where the tables go (removed as soon as they are opened): `$TMPDIR`, else `/tmp`. On a tmpfs their
    /// bytes are held in memory, outside the process's own.
    public var folder: String
    /// Records (which batch and blob store each) held in memory.
    public var records: Int
    /// Device bindings (each with its received verdicts) held in memory.
    public var bindings: Int

    /// 2^20 records: the 7.7 × 10^5 of 10^6 write entries fit; at 10^7 the index's dictionary was ~1 GB.
    public static let defaultRecords = 1 << 20
    /// 2^17 bindings: the 10^5 of 10^6 write entries fit; at 10^7 the table's 10^6 bindings, each with its
    /// verdicts decoded, held ~0.9 GB.
    public static let defaultBindings = 1 << 17

    public init(folder: String? = nil, records: Int = defaultRecords, bindings: Int = defaultBindings) {
        let temporary = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        self.folder = folder ?? (temporary.isEmpty ? "/tmp" : temporary)
        self.records = records
        self.bindings = bindings
    }
}
