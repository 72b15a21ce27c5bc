public import LedgerFormat
public import LedgerStore

/// What a witness key cosigned last for one log: the tree head it vouched for and when.
///
/// One file per log and witness key, `<stateRoot>/witness/<SHA-256 of the origin>/<key ID>.json`, holding
/// the canonical JSON `{origin, size, root, time}` (docs/VERIFY.md, "Auditor state"). `cosign` and
/// `witness serve` read and write it through this type alone, so a witness key run both ways keeps one
/// memory. tlog-witness: "the witness is only required to keep track of the latest checkpoint it observed
/// and verified", and "MUST persist the new checkpoint before responding" — ``save(to:)`` is written with
/// fsync and rename before a cosignature leaves the process.
public struct WitnessMemory: Sendable, Equatable {
    public let origin: String
    public let size: Int
    public let root: Merkle.Hash
    /// The cosignature's timestamp (POSIX seconds).
    public let time: Int64

    public init(origin: String, size: Int, root: Merkle.Hash, time: Int64) {
        self.origin = origin
        self.size = size
        self.root = root
        self.time = time
    }

    /// `<stateRoot>/witness/<SHA-256 of the origin>/<key ID>.json`.
    public static func path(stateRoot: String, origin: String, key: NoteKey) -> String {
        "\(stateRoot)/witness/\(SHA256.hash(Array(origin.utf8)).hex)/\(NoteKey.hex(key.keyID)).json"
    }

    public struct Unreadable: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The memory stored at `path`; nil when the witness never cosigned this log.
    public static func load(_ path: String) throws(Unreadable) -> WitnessMemory? {
        guard let bytes = DurableFile.read(path) else { return nil }
        guard let object = try? CanonicalJSON.parse(bytes), case .string(let origin)? = object["origin"],
            case .integer(let size)? = object["size"], size >= 0, case .string(let rootText)? = object["root"],
            let raw = Base64.decode(rootText), raw.count == 32, case .integer(let time)? = object["time"]
        else { throw Unreadable(description: "\(path): unreadable witness state") }
        return WitnessMemory(origin: origin, size: Int(size), root: ContentAddress(bytes: raw), time: time)
    }

    /// Writes the memory durably (a temporary file, fsync, rename, fsync of the folder), creating its folders.
    public func save(to path: String) throws(DurableFile.WriteError) {
        let object = JSONObject([
            ("origin", .string(origin)), ("size", .integer(Int64(size))),
            ("root", .string(Base64.encode(root.bytes))), ("time", .integer(time)),
        ])
        try DurableFile.makeFolders(String(path[..<path.lastIndex(of: "/")!]), mode: 0o700)
        try DurableFile.write(CanonicalJSON.encode(object), to: path, mode: 0o600)
    }
}
