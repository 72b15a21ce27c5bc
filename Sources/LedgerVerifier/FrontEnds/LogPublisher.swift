internal import LedgerFormat
internal import LedgerStore

/// `publish`: the C2SP tlog-tiles layout of a verified ledger's log in a folder any static host can serve —
/// `checkpoint`, hash tiles `tile/<L>/<N>[.p/<W>]` and entry bundles `tile/entries/<N>[.p/<W>]` — written
/// incrementally from the last publication in that folder.
///
/// A folder that already holds a checkpoint is extended only when that checkpoint is a prefix of this log
/// (same origin and key, its root the root of the first leaves): a folder published from another history
/// — a split view — is refused, not overwritten. Existing files are never rewritten with other bytes;
/// every tile already in the folder is compared with this log's, and the checkpoint is written last, so a
/// reader never sees a checkpoint whose tiles are missing.
///
/// The folder may be writable by others (a web root): every file and folder inside it is reached through
/// `OpenFolder` (LedgerStore), so a symbolic link, FIFO or other special file where publish reads or writes is refused —
/// nothing is read or written through it, and nothing waits on it. Everything is checked before the first
/// file is written: a refused folder is left as it was.
public enum LogPublisher {
    public struct Publication: Sendable {
        public let previousSize: Int
        public let size: Int
        public let filesWritten: Int
    }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        /// The folder is refused: it holds a checkpoint or tile this log does not extend (a split view, or
        /// another ledger), or a link or special file where publish reads or writes. Nothing was written.
        public let isRefusedFolder: Bool
    }

    /// The longest checkpoint read from the folder: a signed note of a few lines and signatures.
    static let checkpointLimit = 64 * 1024

    public static func publish(_ log: LedgerLogView, to folder: String) throws(Failure) -> Publication {
        guard let tip = log.tip else {
            throw Failure(description: "the ledger has no checkpoint", isRefusedFolder: false)
        }
        do {
            guard let root = try OpenFolder.open(folder, create: true) else {
                throw Failure(description: "\(folder): cannot be created", isRefusedFolder: false)
            }
            let previousSize = try publishedSize(in: root, log: log)
            var folders = FolderCache(root: root)
            // Every file of the log at this size: one already there must be this log's (a tile from another
            // history is refused), a missing one is written — after all are checked.
            var missing: [(path: String, bytes: [UInt8])] = []
            for file in log.tiles.files() {
                let (parent, name) = split(file.path)
                guard let existing = try folders.folder(parent, create: false)?.read(name, limit: file.bytes.count)
                else {
                    missing.append(file)
                    continue
                }
                guard existing == file.bytes else {
                    throw Failure(
                        description:
                            "\(folder)/\(file.path) holds other bytes than this log's tile; nothing was written",
                        isRefusedFolder: true)
                }
            }
            for file in missing {
                let (parent, name) = split(file.path)
                try folders.folder(parent, create: true)!.write(file.bytes, to: name, durable: false)
            }
            try root.write(Array((log.cosignedTip ?? tip.note).utf8), to: LedgerLayout.checkpointPath)
            return Publication(previousSize: previousSize, size: log.size, filesWritten: missing.count + 1)
        } catch let error as Failure {
            throw error
        } catch let error as DurableFile.WriteError {
            throw Failure(description: error.description, isRefusedFolder: error.refusal != nil)
        } catch {
            throw Failure(description: "\(error)", isRefusedFolder: false)
        }
    }

    /// The size of the checkpoint already in the folder (0 when there is none), refusing one that is not a
    /// prefix of this log.
    private static func publishedSize(in root: OpenFolder, log: LedgerLogView) throws -> Int {
        let checkpointPath = "\(root.path)/\(LedgerLayout.checkpointPath)"
        guard let bytes = try root.read(LedgerLayout.checkpointPath, limit: checkpointLimit) else { return 0 }
        // This log's checkpoint — or one the ledger carried before a log handover (docs/FORMAT.md, "Log
        // handover"): the folder then follows the new log, whose leaves continue the old one's.
        guard let note = try? SignedNote(parsing: String(decoding: bytes, as: UTF8.self)),
            let head = TreeHead(text: note.text),
            (note.isSigned(by: log.key) && head.origin.hasSameBytes(as: log.key.name))
                || log.checkpoints.contains(where: {
                    (try? SignedNote(parsing: $0.note))?.text.hasSameBytes(as: note.text) == true
                })
        else {
            throw Failure(
                description:
                    "\(checkpointPath) is not a checkpoint of this log (\(log.key)); publish to another folder",
                isRefusedFolder: true)
        }
        guard head.size <= log.size, Merkle.root(log.tiles.levels[0][..<head.size]) == head.root else {
            throw Failure(
                description: """
                    \(checkpointPath) (size \(head.size)) is not a prefix of this ledger's log (size \(log.size)): \
                    the folder was published from another history; nothing was written
                    """, isRefusedFolder: true)
        }
        return head.size
    }

    /// A tile path's folder and file name.
    private static func split(_ path: String) -> (folder: Substring, name: String) {
        let slash = path.lastIndex(of: "/")!
        return (path[..<slash], String(path[path.index(after: slash)...]))
    }

    /// The last folder opened: tiles come in folder order, so each folder is opened once per run of files.
    private struct FolderCache {
        let root: OpenFolder
        var last: (path: Substring, folder: OpenFolder?)?

        mutating func folder(_ path: Substring, create: Bool) throws(DurableFile.WriteError) -> OpenFolder? {
            if let last, last.path == path, last.folder != nil || !create { return last.folder }
            let folder = try root.folder(at: path, create: create)
            last = (path, folder)
            return folder
        }
    }
}
