public import LedgerFormat
public import LedgerStore

/// `publish`: the C2SP tlog-tiles layout of a verified ledger's log in a folder any static host can serve —
/// `checkpoint`, hash tiles `tile/<L>/<N>[.p/<W>]` and entry bundles `tile/entries/<N>[.p/<W>]` — written
/// incrementally from the last publication in that folder (issue 15).
///
/// A folder that already holds a checkpoint is extended only when that checkpoint is a prefix of this log
/// (same origin and key, its root the root of the first leaves): a folder published from another history
/// — a split view — is refused, not overwritten. Existing files are never rewritten with other bytes;
/// every tile already in the folder is compared with this log's, and the checkpoint is written last, so a
/// reader never sees a checkpoint whose tiles are missing.
public enum LogPublisher {
    public struct Publication: Sendable {
        public let previousSize: Int
        public let size: Int
        public let filesWritten: Int
    }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        /// The folder holds a checkpoint this log does not extend (a split view, or another ledger).
        public let isInconsistent: Bool
    }

    public static func publish(_ log: LedgerLogView, to folder: String) throws(Failure) -> Publication {
        guard let tip = log.tip else {
            throw Failure(description: "the ledger has no checkpoint", isInconsistent: false)
        }
        let checkpointPath = folder + "/checkpoint"
        var previousSize = 0
        if let bytes = DurableFile.read(checkpointPath) {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let note = try? SignedNote(parsing: text), note.isSigned(by: log.key),
                let head = TreeHead(text: note.text), head.origin == log.key.name
            else {
                throw Failure(
                    description:
                        "\(checkpointPath) is not a checkpoint of this log (\(log.key)); publish to another folder",
                    isInconsistent: true)
            }
            guard head.size <= log.size, Merkle.root(log.tiles.levels[0][..<head.size]) == head.root else {
                throw Failure(
                    description: """
                        \(checkpointPath) (size \(head.size)) is not a prefix of this ledger's log (size \(log.size)): \
                        the folder was published from another history; nothing was written
                        """, isInconsistent: true)
            }
            previousSize = head.size
        }
        var written = 0
        do {
            // Every file of the log at this size: one already there must be this log's (a tile from another
            // history is refused), a missing one is written.
            for (path, bytes) in log.tiles.files() {
                let full = folder + "/" + path
                if let existing = DurableFile.read(full) {
                    guard existing == bytes else {
                        throw Failure(
                            description: "\(full) holds other bytes than this log's tile; nothing more was written",
                            isInconsistent: true)
                    }
                    continue
                }
                try DurableFile.makeFolders(String(full[..<full.lastIndex(of: "/")!]))
                try DurableFile.write(bytes, to: full, durable: false)
                written += 1
            }
            try DurableFile.write(Array((log.cosignedTip ?? tip.note).utf8), to: checkpointPath)
            written += 1
        } catch let error as Failure {
            throw error
        } catch {
            throw Failure(description: "\(error)", isInconsistent: false)
        }
        return Publication(previousSize: previousSize, size: log.size, filesWritten: written)
    }
}
