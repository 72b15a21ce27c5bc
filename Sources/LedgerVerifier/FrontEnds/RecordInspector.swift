public import LedgerFormat

/// What `onym-ledger inspect` reports about one input file: the library front end behind the verb.
public struct InspectionReport: Sendable {
    public struct SignatureCheck: Sendable {
        /// Which signature (`user`, `interface`, `operator`, `manifest (detached)`).
        public let role: String
        /// The key it was checked against, when one was known.
        public let key: String?
        public let status: SignatureStatus
    }

    /// One rule the file breaks, named by the policy `append` refuses it under and `verify` reports.
    public struct Finding: Sendable {
        public let policy: String
        public let path: String?
        public let reason: String
    }

    /// The input kind (`InputKind`), as `append --kind` names it.
    public let kind: InputKind
    /// Whether the bytes are already canonical JSON. Not a finding: `append` stores the canonical form
    /// (manifests excepted: their exact bytes are what is hashed and stored).
    public let isCanonical: Bool
    /// The record's content address (mandateRef, verdictRef, manifestHash, …); nil for write requests
    /// and audit exports, whose entries are addressed by sequence.
    public let contentAddress: ContentAddress?
    public let signatures: [SignatureCheck]
    public let findings: [Finding]
    /// What could not be checked from this file alone, and what to give to check it.
    public let unchecked: [String]
    public let summary: [(String, String)]
}

/// Inspects one input file with the rules `append` applies to it, under the same names: the shape
/// recognition and decoders (`InputKind`), signatures, verdict validation, chain hashes. What needs the
/// ledger (references, scopes, time windows, the replay) is `append`'s and `verify`'s to judge; what
/// needs a key or a mandate the file does not carry is listed as unchecked.
public enum RecordInspector {
    public struct Options: Sendable {
        /// Keys the record does not carry: interface countersigning keys, authority operator keys.
        public var keys: [Ed25519.PublicKey] = []
        public var kind: InputKind?
        /// Bytes of a detached manifest signature (`MANIFEST.sig`), when present.
        public var detachedSignature: [UInt8]?
        /// The mandate a verdict or submission names, to run the full verdict validation.
        public var mandate: Mandate?
        /// The manifest to validate a bare verdict against.
        public var manifest: AuthorityManifest?
        /// "Now" for verdict validation.
        public var now: Instant?

        public init() {}
    }

    /// - Throws: `LedgerFormatError` when the bytes are not JSON or match no input kind (the CLI's
    ///   exit 65); every rule a readable input breaks is a finding instead.
    public static func inspect(_ bytes: [UInt8], options: Options = Options()) throws(LedgerFormatError)
        -> InspectionReport
    {
        let (kind, parsed) = try InputKind.recognize(bytes, as: options.kind)
        var inspection = Inspection(kind: kind, options: options)
        inspection.isCanonical = parsed.map { CanonicalJSON.encode($0) == bytes } ?? true
        do {
            try inspection.check(bytes, object: parsed)
        } catch {
            inspection.findings.append(
                .init(policy: RecordSchemaPolicy.name, path: error.path, reason: "\(error.code): \(error.reason)"))
        }
        return inspection.report
    }
}

/// One inspection in progress: what has been found so far.
private struct Inspection {
    let kind: InputKind
    let options: RecordInspector.Options
    var isCanonical = true
    var address: ContentAddress?
    var signatures: [InspectionReport.SignatureCheck] = []
    var findings: [InspectionReport.Finding] = []
    var unchecked: [String] = []
    var summary: [(String, String)] = []

    init(kind: InputKind, options: RecordInspector.Options) {
        self.kind = kind
        self.options = options
    }

    var report: InspectionReport {
        InspectionReport(
            kind: kind, isCanonical: isCanonical, contentAddress: address, signatures: signatures, findings: findings,
            unchecked: unchecked, summary: summary)
    }

    mutating func find(_ policy: String, _ reason: String, at path: String? = nil) {
        findings.append(.init(policy: policy, path: path, reason: reason))
    }

    /// Decodes the input as its kind and checks what the file alone can show.
    mutating func check(_ bytes: [UInt8], object: JSONObject?) throws(LedgerFormatError) {
        guard let object else { return writeRequests(try WriteRequest.lines(bytes)) }
        if let stored = kind.stored {
            let record = try stored.init(storedBytes: bytes, json: object)
            address = record.address
            return self.record(record)
        }
        switch kind {
        case .auditExport: chain(try AuditExport(json: object).entries)
        case .writeLogEntry: chain([try WriteLogEntry(json: object)])
        case .verdictSubmission:
            let submission = try VerdictSubmission(json: object)
            address = submission.verdict.ref
            verdict(submission.verdict, submitted: try submission.manifest())
        default: writeRequests([try WriteRequest(json: object)])
        }
    }

    /// What one stored record alone can show: its signatures, verdict validation, its main fields.
    private mutating func record(_ record: any StoredRecord) {
        switch record {
        case let mandate as Mandate: self.mandate(mandate)
        case let verdict as Verdict: self.verdict(verdict, submitted: nil)
        case let manifest as AuthorityManifest: self.manifest(manifest)
        case let receipt as VerdictReceipt:
            summary += [
                ("verdictRef", receipt.verdictRef.hex), ("status", receipt.status.rawValue),
                ("receivedAt", receipt.receivedAt.rfc3339),
            ]
            unchecked.append("the receipt's verdict and status: append and verify check them against the ledger")
        case let profile as EnforcementProfile:
            summary += [("profileId", profile.profileId), ("platform", profile.platform)]
        case let attempt as StatusAttempt:
            summary += [
                ("authority", attempt.authority), ("attemptedAt", attempt.attemptedAt.rfc3339),
                ("answered", attempt.answered ? "yes" : "no"),
            ]
            signed("interface", attempt.signatureStatus(keys: options.keys), RevocationPolicy.name)
        case let report as CompromiseReport:
            summary += [("authority", report.authority), ("compromisedAt", report.compromisedAt.rfc3339)]
            signed("operator", report.signatureStatus(keys: options.keys), RevocationPolicy.name)
        case let revocation as RevocationDetermination:
            summary += [
                ("authority", revocation.authority), ("trigger", revocation.trigger.rawValue),
                ("effectiveAt", revocation.effectiveAt.rfc3339),
            ]
            signed("interface", revocation.signatureStatus(keys: options.keys), RevocationPolicy.name)
            unchecked.append("whether the cited evidence justifies it: append and verify judge it against the ledger")
        case let grant as Grant:
            summary += [
                ("grantType", grant.grantType.rawValue), ("caseId", grant.caseId), ("grantee", grant.grantee),
                ("authority", grant.authority), ("issuedAt", grant.issuedAt.rfc3339),
            ]
            signed("operator", grant.signatureStatus(keys: options.keys), GrantPolicy.name)
            unchecked.append("its redemption: append and verify judge it against the ledger")
        case let redemption as Redemption:
            summary += [
                ("grantRef", redemption.grantRef.hex), ("grantType", redemption.grantType.rawValue),
                ("fromBinding", redemption.fromBinding), ("toBinding", redemption.toBinding ?? "-"),
                ("redeemedAt", redemption.redeemedAt.rfc3339),
            ]
            unchecked.append(
                "the grant, its signature, lifetime and single use: append and verify judge it against the ledger")
        default:
            unchecked.append(
                "the \(type(of: record).kindName)'s own rules: append and verify judge it against the ledger")
        }
    }

    /// A signature checked against the keys given: invalid or missing is `policy`'s finding; no key to
    /// check it against is unchecked.
    private mutating func signed(_ role: String, _ status: SignatureStatus, _ policy: String, key: String? = nil) {
        signatures.append(.init(role: role, key: key, status: status))
        switch status {
        case .valid: break
        case .keyUnknown: unchecked.append("the \(role) signature: give the \(role) key with --key onym:key:…")
        case .missing: find(policy, "the \(role) signature is missing")
        default: find(policy, "the \(role) signature is \(status.rawValue)")
        }
    }

    private mutating func mandate(_ mandate: Mandate) {
        signed("user", mandate.userSignatureStatus, MandateSignaturePolicy.name, key: mandate.userKey)
        let matching = options.keys.first {
            $0.isValidSignature(mandate.signatures.count > 1 ? mandate.signatures[1] : [], for: mandate.signingBytes)
        }
        signed(
            "interface", mandate.interfaceSignatureStatus(candidates: options.keys), MandateSignaturePolicy.name,
            key: matching?.onymKey)
        summary += [
            ("user", mandate.userKey), ("authority", mandate.authority), ("deviceBinding", mandate.deviceBinding),
            ("classes", mandate.classes.joined(separator: ", ")), ("manifestHash", mandate.manifestHash.hex),
        ]
    }

    private mutating func verdict(_ verdict: Verdict, submitted: AuthorityManifest?) {
        summary += Self.summary(of: verdict)
        let manifest = submitted ?? options.manifest
        if let submitted {
            summary.append(("consentedManifest", submitted.hash.hex))
            if submitted.componentId != verdict.authority {
                find(
                    VerdictValidationPolicy.name,
                    "manifestMismatch: the consented manifest is \(submitted.componentId)'s, the verdict is "
                        + "\(verdict.authority)'s", at: "$.consentedManifest")
            }
        }
        let key = manifest?.operatorKey ?? options.keys.first { verdict.signatureStatus(operatorKey: $0) == .valid }
        if manifest == nil && key == nil && !options.keys.isEmpty {
            signed("operator", .invalid, VerdictAuthorityPolicy.name)
        } else if manifest == nil && key == nil {
            signatures.append(.init(role: "operator", key: nil, status: .keyUnknown))
            unchecked.append("the verdict's signature: give its consented manifest with --manifest (or --key)")
        } else {
            signed(
                "operator", verdict.signatureStatus(operatorKey: key), VerdictAuthorityPolicy.name, key: key?.onymKey)
        }
        guard let manifest, let mandate = options.mandate, let now = options.now else {
            unchecked.append(
                "verdict validation: give --mandate FILE and --at TIME" + (manifest == nil ? " and --manifest" : ""))
            return
        }
        switch VerdictValidator.validate(verdict, mandate: mandate, manifest: manifest, now: now) {
        case .success(let outcome):
            summary.append(
                ("validation", outcome.receiptStatus == .stored ? "valid, stored until executeAfter" : "valid, queued"))
        case .failure(let rejection):
            // The signature is the authority policy's, reported above.
            if rejection.rule != .signatureInvalid {
                find(VerdictValidationPolicy.name, "\(rejection.rule.rawValue): \(rejection.reason)")
            }
        }
    }

    private mutating func manifest(_ manifest: AuthorityManifest) {
        summary += [
            ("componentId", manifest.componentId), ("operator", manifest.operatorKey.onymKey),
            ("classes", manifest.classes.map(\.classId).joined(separator: ", ")),
            ("validUntil", manifest.validUntil.rfc3339),
        ]
        if let signature = options.detachedSignature {
            signed(
                "manifest (detached)", manifest.detachedSignatureStatus(signature), ManifestSignaturePolicy.name,
                key: manifest.operatorKey.onymKey)
        }
    }

    private mutating func writeRequests(_ requests: [WriteRequest]) {
        summary.append(("writes", String(requests.count)))
        if let first = requests.first, let last = requests.last {
            summary.append(("recordedAt", "\(first.recordedAt) … \(last.recordedAt)"))
        }
        unchecked.append(
            "whether the ledger's mandates name the bindings, the time order and the replay: append judges them")
    }

    /// Entries that carry their chain, judged as the commit that would add them by the policy `append`
    /// and `verify` run (``OneFileCandidate``): each hash recomputes, each links to the one before it.
    private mutating func chain(_ entries: [WriteLogEntry]) {
        summary.append(("entries", String(entries.count)))
        if let first = entries.first, let last = entries.last {
            summary.append(("sequences", "\(first.sequence) … \(last.sequence)"))
        }
        for failure in OneFileCandidate.judge(entries: entries, policies: [ChainLinkPolicy()]) {
            find(failure.policy, (failure.record.map { "\($0): " } ?? "") + failure.reason)
        }
        unchecked.append("whether the entries continue the ledger's log and the replay: append judges them")
    }

    private static func summary(of verdict: Verdict) -> [(String, String)] {
        var lines: [(String, String)] = [
            ("caseId", verdict.caseId), ("disposition", verdict.disposition.rawValue),
            ("authority", verdict.authority), ("deviceBinding", verdict.deviceBinding), ("classId", verdict.classId),
            ("decidedAt", verdict.decidedAt.rfc3339), ("mandateRef", verdict.mandateRef.hex),
        ]
        if let executeAfter = verdict.executeAfter { lines.append(("executeAfter", executeAfter.rfc3339)) }
        if let banExpires = verdict.banExpires { lines.append(("banExpires", banExpires.rfc3339)) }
        return lines
    }
}

extension InspectionReport {
    /// The `inspect --json` shape: {file, kind, canonical, summary, signatures, findings, unchecked[, contentAddress]}.
    public func json(file: String) -> JSONObject {
        var object = JSONObject([
            ("file", .string(file)), ("kind", .string(kind.rawValue)),
            ("canonical", .bool(isCanonical)),
            ("summary", .object(JSONObject(summary.map { ($0.0, JSONValue.string($0.1)) }))),
            (
                "signatures",
                .array(
                    signatures.map { signature in
                        var object = JSONObject([
                            ("role", .string(signature.role)), ("status", .string(signature.status.rawValue)),
                        ])
                        if let key = signature.key { object.set("key", .string(key)) }
                        return .object(object)
                    })
            ),
            (
                "findings",
                .array(
                    findings.map { finding in
                        var object = JSONObject([
                            ("policy", .string(finding.policy)), ("reason", .string(finding.reason)),
                        ])
                        if let path = finding.path { object.set("path", .string(path)) }
                        return .object(object)
                    })
            ),
            ("unchecked", .array(unchecked.map { .string($0) })),
        ])
        if let address = contentAddress { object.set("contentAddress", .string(address.hex)) }
        return object
    }
}
