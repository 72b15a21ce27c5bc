import LedgerStore

#if canImport(Glibc)
    import Glibc
#endif

/// How much room the ledger's packs take, and when to suggest `repack` (a ledger appended one
/// record at a time stays compact). Appends write each batch's objects without deltas and merge small
/// packs geometrically; a delta-compressed `repack` shrinks such a ledger about tenfold (3 000 single
/// appends: 40 MB → 3.3 MB). The append suggests it once the packs have grown past twice their size after
/// the last `repack` (and past a floor): a hint, not an automatic repack, so no append pays a repack's
/// seconds of delta search — the vendor runs it when convenient (docs/DECISIONS.md).
public enum PackUsage {
    /// No hint below this many bytes of packs (`ONYM_LEDGER_PACK_HINT_BYTES` overrides).
    public static let defaultFloor = 16 << 20

    static let markerName = "onym-ledger-repacked-bytes"

    /// The hint for packs of `packBytes` bytes when the last repack left `repackedBytes` (0: never).
    public static func hint(packBytes: Int, repackedBytes: Int, floor: Int = defaultFloor) -> String? {
        guard packBytes >= floor, packBytes >= 2 * repackedBytes else { return nil }
        return "the ledger's packs hold \(megabytes(packBytes)) MB"
            + (repackedBytes > 0 ? " (\(megabytes(repackedBytes)) MB after the last repack)" : "")
            + "; 'onym-ledger repack LEDGER' rewrites them delta-compressed, usually several times smaller"
    }

    /// The hint for the ledger in `gitDirectory`, from its pack files and the last repack's marker.
    static func hint(gitDirectory: String) -> String? {
        let floor = getenv("ONYM_LEDGER_PACK_HINT_BYTES").flatMap { Int(String(cString: $0)) } ?? defaultFloor
        let marker = DurableFile.read(folder(gitDirectory) + markerName).map { String(decoding: $0, as: UTF8.self) }
        let repacked = marker.flatMap { Int($0) } ?? 0
        return hint(packBytes: packBytes(gitDirectory: gitDirectory), repackedBytes: repacked, floor: floor)
    }

    /// Remembers the packs' size right after a repack.
    static func recordRepack(gitDirectory: String) {
        let size = Array(String(packBytes(gitDirectory: gitDirectory)).utf8)
        try? DurableFile.write(size, to: folder(gitDirectory) + markerName, durable: false)
    }

    /// The total size of the ledger's packs (those with an index, as git counts them).
    static func packBytes(gitDirectory: String) -> Int {
        let directory = PackFolder.path(gitDirectory: gitDirectory)
        return Repository.packNames(in: directory).reduce(0) { total, name in
            var info = stat()
            return stat(directory + name + ".pack", &info) == 0 ? total + Int(info.st_size) : total
        }
    }

    private static func folder(_ gitDirectory: String) -> String {
        gitDirectory.hasSuffix("/") ? gitDirectory : gitDirectory + "/"
    }

    private static func megabytes(_ bytes: Int) -> String {
        "\(bytes / 1_048_576).\(bytes % 1_048_576 * 10 / 1_048_576)"
    }
}
