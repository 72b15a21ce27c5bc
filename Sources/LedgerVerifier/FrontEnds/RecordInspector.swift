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
        // The loader's own test (`CommitLoader.decode`), so that `inspect` and `verify` call the same files canonical.
        inspection.isCanonical = parsed.map { CanonicalEncoding(of: $0).isIdentical(to: bytes) } ?? true
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

    /// What one stored record alone can show: its declared signatures, verdict validation, its main fields.
    private mutating func record(_ record: any StoredRecord) {
        switch record {
        case let verdict as Verdict: return self.verdict(verdict, submitted: nil)
        case let manifest as AuthorityManifest: return self.manifest(manifest)
        default: break
        }
        summary += Self.summary(of: record)
        checkSignatures(of: record, references: given())
        switch record {
        case is VerdictReceipt:
            unchecked.append("the receipt's verdict and status: append and verify check them against the ledger")
        case is RevocationDetermination:
            unchecked.append("whether the cited evidence justifies it: append and verify judge it against the ledger")
        case is Grant:
            unchecked.append(
                "its signature, lifetime and single use: its redemption names the key that signs it (the operator "
                    + "key of the grantee's consented manifest); append and verify judge it there")
        case is Redemption:
            unchecked.append("the grant's lifetime and single use: append and verify judge them against the ledger")
        case is Mandate, is StatusAttempt, is CompromiseReport, is EnforcementProfile: break
        default:
            unchecked.append(
                "the \(type(of: record).kindName)'s own rules: append and verify judge it against the ledger")
        }
    }

    /// The records given beside the file — `--mandate`, the manifest a submission carries or `--manifest`
    /// names — standing for what its references resolve to in a ledger.
    private func given(submitted: AuthorityManifest? = nil) -> ResolvedReferences {
        var found = ResolvedReferences()
        if let mandate = options.mandate { found.add(mandate, at: mandate.ref) }
        if let manifest = submitted ?? options.manifest { found.add(manifest, at: manifest.hash) }
        return found
    }

    /// Checks the signatures `subject`'s kind declares (`RecordDeclaration/signatures`), each with the rule's
    /// own check — the one `verify` and `append` run — against the keys given: one not valid is a finding
    /// of the policy that judges it there (`StandardLedgerPolicy/judge(of:_:)`); one whose key or signed
    /// record is not given is unchecked, with what to give.
    private mutating func checkSignatures(of subject: any RecordDeclaration, references: ResolvedReferences) {
        let kind = type(of: subject)
        let keys = InspectionKeys(keys: options.keys)
        for rule in kind.signatures {
            let role = rule.role.rawValue
            guard let status = rule.check(subject, references: references, keys: keys) else {
                unchecked.append(
                    "the \(role) signature: it needs a record this file names, not given here; append and verify "
                        + "check it against the ledger")
                continue
            }
            let key = rule.verifyingKey(subject, references: references, keys: keys)
            signatures.append(.init(role: role, key: key?.onymKey ?? carriedKey(subject, rule), status: status))
            let policy = StandardLedgerPolicy.judge(of: kind, rule.role) ?? RecordSchemaPolicy.name
            switch status {
            case .valid: break
            case .keyUnknown: unchecked.append("the \(role) signature: \(Self.whatToGive(rule.key))")
            case .missing: find(policy, "the \(role) signature is missing")
            default: find(policy, "the \(role) signature is \(status.rawValue)")
            }
        }
    }

    /// The key a record carries for a signature by it (a mandate's user).
    private func carriedKey(_ subject: any RecordDeclaration, _ rule: SignatureRule) -> String? {
        guard case .carried = rule.key else { return nil }
        return (subject as? Mandate)?.userKey.text
    }

    private static func whatToGive(_ key: SignatureRule.Key) -> String {
        switch key {
        case .carried: "the record carries no key for it"
        case .countersigning: "give the interface's countersigning key with --key onym:key:…"
        case .referencedManifestOperator:
            "give the manifest it names with --manifest FILE (or its operator key with --key onym:key:…)"
        }
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
        checkSignatures(of: verdict, references: given(submitted: submitted))
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
            ("componentId", manifest.componentId.text), ("operator", manifest.operatorKey.onymKey),
            ("classes", manifest.classes.map(\.classId.text).joined(separator: ", ")),
            ("validUntil", manifest.validUntil.rfc3339),
        ]
        if let signature = options.detachedSignature {
            var itself = ResolvedReferences()
            itself.add(manifest, at: manifest.hash)
            checkSignatures(
                of: DetachedManifestSignature(manifestHash: manifest.hash, bytes: signature), references: itself)
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

    /// A stored record's main fields, by field name: the `summary` of `inspect --json`.
    private static func summary(of record: any StoredRecord) -> [(String, String)] {
        switch record {
        case let verdict as Verdict: summary(of: verdict)
        case let mandate as Mandate:
            [
                ("user", mandate.userKey.text), ("authority", mandate.authority.text),
                ("deviceBinding", mandate.deviceBinding.text),
                ("classes", mandate.classes.texts.joined(separator: ", ")), ("manifestHash", mandate.manifestHash.hex),
            ]
        case let receipt as VerdictReceipt:
            [
                ("verdictRef", receipt.verdictRef.hex), ("status", receipt.status.rawValue),
                ("receivedAt", receipt.receivedAt.rfc3339),
            ]
        case let profile as EnforcementProfile: [("profileId", profile.profileId), ("platform", profile.platform)]
        case let attempt as StatusAttempt:
            [
                ("authority", attempt.authority.text), ("attemptedAt", attempt.attemptedAt.rfc3339),
                ("answered", attempt.answered ? "yes" : "no"),
            ]
        case let report as CompromiseReport:
            [("authority", report.authority.text), ("compromisedAt", report.compromisedAt.rfc3339)]
        case let revocation as RevocationDetermination:
            [
                ("authority", revocation.authority.text), ("trigger", revocation.trigger.rawValue),
                ("effectiveAt", revocation.effectiveAt.rfc3339),
            ]
        case let grant as Grant:
            [
                ("grantType", grant.grantType.rawValue), ("caseId", grant.caseId.text), ("grantee", grant.grantee.text),
                ("authority", grant.authority.text), ("issuedAt", grant.issuedAt.rfc3339),
            ]
        case let redemption as Redemption:
            [
                ("grantRef", redemption.grantRef.hex), ("grantType", redemption.grantType.rawValue),
                ("fromBinding", redemption.fromBinding.text), ("toBinding", redemption.toBinding?.text ?? "-"),
                ("redeemedAt", redemption.redeemedAt.rfc3339),
            ]
        default: []
        }
    }

    private static func summary(of verdict: Verdict) -> [(String, String)] {
        var lines: [(String, String)] = [
            ("caseId", verdict.caseId.text), ("disposition", verdict.disposition.rawValue),
            ("authority", verdict.authority.text), ("deviceBinding", verdict.deviceBinding.text),
            ("classId", verdict.classId.text),
            ("decidedAt", verdict.decidedAt.rfc3339), ("mandateRef", verdict.mandateRef.hex),
        ]
        if let executeAfter = verdict.executeAfter { lines.append(("executeAfter", executeAfter.rfc3339)) }
        if let banExpires = verdict.banExpires { lines.append(("banExpires", banExpires.rfc3339)) }
        return lines
    }
}

/// The keys `inspect` checks signatures against: the `--key`s given, for any role; a manifest given or
/// carried (a submission's) is the operator key of the records that name it.
private struct InspectionKeys: SignatureKeys {
    let keys: [Ed25519.PublicKey]

    func countersigningKeys(for authority: WireString) -> [Ed25519.PublicKey] { keys }

    func operatorKeys(of manifest: AuthorityManifest?) -> [Ed25519.PublicKey]? {
        manifest.map { [$0.operatorKey] } ?? keys
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
