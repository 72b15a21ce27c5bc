public import LedgerFormat
public import LedgerStore

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

/// Turns input files into batch items, recognizing each record's kind by its shape.
public enum BatchImporter {
    /// The kinds `append --kind` accepts.
    public enum Kind: String, CaseIterable, Sendable {
        case profile, manifest, mandate, verdict
        case verdictSubmission = "verdict-submission"
        case receipt
        case auditExport = "audit-export"
        case writeLogEntry = "write-log-entry"
        case writeRequests = "write-requests"
        case statusAttempt = "status-attempt"
        case compromiseReport = "compromise-report"
        case revocation
    }

    /// - Parameters:
    ///   - source: the file's name for messages.
    ///   - detachedSignature: a manifest's `.sig` bytes, when the file has one beside it.
    public static func read(
        _ bytes: [UInt8], source: String, kind: Kind? = nil, detachedSignature: [UInt8]? = nil
    ) throws(AppendError) -> BatchItem {
        if kind == .writeRequests || (kind == nil && looksLikeNDJSON(bytes)) {
            return BatchItem(source: source, content: .writeRequests(try readWriteRequests(bytes, source: source)))
        }
        let object: JSONObject
        do {
            object = try CanonicalJSON.parse(bytes)
        } catch {
            throw AppendError(source: source, error)
        }
        let resolved: Kind
        if let kind {
            resolved = kind
        } else if AuditExport.matches(object) {
            resolved = .auditExport
        } else if WriteRequest.matches(object) {
            resolved = .writeRequests
        } else if let recognized = RecordKind.recognize(object) {
            switch recognized {
            case .profile: resolved = .profile
            case .manifest: resolved = .manifest
            case .mandate: resolved = .mandate
            case .verdict: resolved = .verdict
            case .verdictSubmission: resolved = .verdictSubmission
            case .receipt: resolved = .receipt
            case .writeLogEntry: resolved = .writeLogEntry
            case .statusAttempt: resolved = .statusAttempt
            case .compromiseReport: resolved = .compromiseReport
            case .revocation: resolved = .revocation
            case .caseNotice, .banState, .gateResult:
                throw AppendError(
                    source: source, rule: "batch.kind",
                    reason: "a \(recognized.rawValue) is a gate answer, not a ledger record")
            }
        } else {
            throw AppendError(
                source: source, rule: "batch.kind",
                reason: "no record kind matches this object's fields (name one with --kind)")
        }
        do {
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

    /// More than one non-empty line, each starting with `{`: newline-delimited JSON.
    private static func looksLikeNDJSON(_ bytes: [UInt8]) -> Bool {
        let lines = bytes.split(separator: 0x0A).filter { line in
            line.contains { $0 != 0x20 && $0 != 0x0D && $0 != 0x09 }
        }
        return lines.count > 1 && lines.allSatisfy { $0.first { $0 != 0x20 && $0 != 0x09 } == UInt8(ascii: "{") }
    }

    private static func readWriteRequests(_ bytes: [UInt8], source: String) throws(AppendError) -> [WriteRequest] {
        var requests: [WriteRequest] = []
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            guard line.contains(where: { $0 != 0x20 && $0 != 0x0D && $0 != 0x09 }) else { continue }
            do {
                let object = try CanonicalJSON.parse(Array(line))
                requests.append(try WriteRequest(json: object))
            } catch {
                throw AppendError(source: source, record: "line \(index + 1)", error)
            }
        }
        return requests
    }
}
