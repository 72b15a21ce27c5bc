/// A record of any kind, decoded from its bytes.
public enum DecodedRecord: Sendable {
    case profile(EnforcementProfile)
    case manifest(AuthorityManifest)
    case mandate(Mandate)
    case verdict(Verdict)
    case verdictSubmission(VerdictSubmission)
    case receipt(VerdictReceipt)
    case writeLogEntry(WriteLogEntry)
    case caseNotice(CaseNotice)
    case banState(BanState)
    case gateResult(GateResult)
    case statusAttempt(StatusAttempt)
    case compromiseReport(CompromiseReport)
    case revocation(RevocationDetermination)

    public var kind: RecordKind {
        switch self {
        case .profile: .profile
        case .manifest: .manifest
        case .mandate: .mandate
        case .verdict: .verdict
        case .verdictSubmission: .verdictSubmission
        case .receipt: .receipt
        case .writeLogEntry: .writeLogEntry
        case .caseNotice: .caseNotice
        case .banState: .banState
        case .gateResult: .gateResult
        case .statusAttempt: .statusAttempt
        case .compromiseReport: .compromiseReport
        case .revocation: .revocation
        }
    }

    /// Parses `bytes` strictly and decodes them as `kind`, or as the kind their shape names.
    /// - Throws: ``LedgerFormatError``: a parse error, ``LedgerFormatError/Code/unknownKind`` when
    ///   no kind matches, or the first field rule the record breaks.
    public static func decode(_ bytes: [UInt8], as kind: RecordKind? = nil) throws(LedgerFormatError) -> DecodedRecord {
        let object = try CanonicalJSON.parse(bytes)
        guard let kind = kind ?? RecordKind.recognize(object) else {
            throw LedgerFormatError(
                .unknownKind, "no record kind matches this object's fields (use --kind to name one)")
        }
        switch kind {
        case .profile: return .profile(try EnforcementProfile(json: object))
        case .manifest: return .manifest(try AuthorityManifest(rawBytes: bytes))
        case .mandate: return .mandate(try Mandate(json: object))
        case .verdict: return .verdict(try Verdict(json: object))
        case .verdictSubmission: return .verdictSubmission(try VerdictSubmission(json: object))
        case .receipt: return .receipt(try VerdictReceipt(json: object))
        case .writeLogEntry: return .writeLogEntry(try WriteLogEntry(json: object))
        case .caseNotice: return .caseNotice(try CaseNotice(json: object))
        case .banState: return .banState(try BanState(json: object))
        case .gateResult: return .gateResult(try GateResult(json: object))
        case .statusAttempt: return .statusAttempt(try StatusAttempt(json: object))
        case .compromiseReport: return .compromiseReport(try CompromiseReport(json: object))
        case .revocation: return .revocation(try RevocationDetermination(json: object))
        }
    }
}
