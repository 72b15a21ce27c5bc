public import LedgerFormat
import LedgerStore

/// One record of a batch, decoded from an input file, with the file it came from.
public struct BatchItem: Sendable {
    public enum Content: Sendable {
        case profile(EnforcementProfile)
        case manifest(AuthorityManifest, detachedSignature: [UInt8]?)
        case mandate(Mandate)
        case verdict(Verdict)
        case submission(VerdictSubmission)
        case receipt(VerdictReceipt)
        /// Entries that already carry sequence and chain hashes (a reference audit export).
        case chainedEntries([WriteLogEntry])
        /// Writes without chain fields, in order; the writer computes sequence and chain.
        case writeRequests([WriteRequest])
        case statusAttempt(StatusAttempt)
        case compromiseReport(CompromiseReport)
        case revocation(RevocationDetermination)
    }

    public let source: String
    public let content: Content

    public init(source: String, content: Content) {
        self.source = source
        self.content = content
    }
}

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
        do {
            let (resolved, parsed) = try InputKind.recognize(bytes, as: kind)
            guard let object = parsed else {
                return item(source, .writeRequests(try WriteRequest.lines(bytes)))
            }
            switch resolved {
            case .profile: return item(source, .profile(try EnforcementProfile(json: object)))
            case .manifest:
                return item(
                    source, .manifest(try AuthorityManifest(rawBytes: bytes), detachedSignature: detachedSignature))
            case .mandate: return item(source, .mandate(try Mandate(json: object)))
            case .verdict: return item(source, .verdict(try Verdict(json: object)))
            case .verdictSubmission: return item(source, .submission(try VerdictSubmission(json: object)))
            case .receipt: return item(source, .receipt(try VerdictReceipt(json: object)))
            case .auditExport: return item(source, .chainedEntries(try AuditExport(json: object).entries))
            case .writeLogEntry: return item(source, .chainedEntries([try WriteLogEntry(json: object)]))
            case .writeRequests: return item(source, .writeRequests([try WriteRequest(json: object)]))
            case .statusAttempt: return item(source, .statusAttempt(try StatusAttempt(json: object)))
            case .compromiseReport: return item(source, .compromiseReport(try CompromiseReport(json: object)))
            case .revocation: return item(source, .revocation(try RevocationDetermination(json: object)))
            }
        } catch {
            throw AppendError(source: source, error)
        }
    }

    private static func item(_ source: String, _ content: BatchItem.Content) -> BatchItem {
        BatchItem(source: source, content: content)
    }
}
