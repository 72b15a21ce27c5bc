public import LedgerFormat
import LedgerStore

/// Turns input files into batch items, recognizing each record's kind by its shape (`InputKind`, the
/// rule `inspect` uses too).
public enum BatchImporter {
    /// - Parameters:
    ///   - source: the file's name for messages.
    ///   - kind: read the file as this kind (`append --kind`) instead of recognizing it.
    ///   - detachedSignature: a manifest's `.sig` bytes, when the file has one beside it.
    public static func read(
        _ bytes: [UInt8], source: String, kind: InputKind? = nil, detachedSignature: [UInt8]? = nil
    ) throws(AppendError) -> BatchItem {
        if kind == nil, let cosignatures = cosignatures(in: bytes) {
            return item(source, .cosignatures(cosignatures))
        }
        do {
            let (resolved, parsed) = try InputKind.recognize(bytes, as: kind)
            guard let object = parsed else {
                return item(source, .writeRequests(try WriteRequest.lines(bytes)))
            }
            if let stored = resolved.stored {
                if stored == AuthorityManifest.self {
                    return item(
                        source, .manifest(try AuthorityManifest(rawBytes: bytes), detachedSignature: detachedSignature))
                }
                return item(source, .record(try stored.init(storedBytes: bytes, json: object)))
            }
            switch resolved {
            case .verdictSubmission: return item(source, .submission(try VerdictSubmission(json: object)))
            case .auditExport: return item(source, .chainedEntries(try AuditExport(json: object).entries))
            case .writeLogEntry: return item(source, .chainedEntries([try WriteLogEntry(json: object)]))
            default: return item(source, .writeRequests([try WriteRequest(json: object)]))
            }
        } catch {
            throw AppendError(source: source, error)
        }
    }

    /// A cosigned checkpoint (what `cosign` prints): a signed note whose body is a checkpoint, split into one
    /// note per cosignature/v1 line (72-byte payload); nil for anything else.
    static func cosignatures(in bytes: [UInt8]) -> [SignedNote]? {
        guard bytes.first != UInt8(ascii: "{"),
            let note = try? SignedNote(parsing: String(decoding: bytes, as: UTF8.self)),
            TreeHead(text: note.text) != nil
        else { return nil }
        let lines = note.signatures.filter { $0.payload.count == 72 }
        return lines.isEmpty ? nil : lines.map { SignedNote(text: note.text, signatures: [$0]) }
    }

    private static func item(_ source: String, _ content: BatchItem.Content) -> BatchItem {
        BatchItem(source: source, content: content)
    }
}
