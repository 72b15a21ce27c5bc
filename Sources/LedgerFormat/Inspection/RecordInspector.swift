/// What `onym-ledger inspect` reports about one record file: the library front end behind the verb.
public struct InspectionReport: Sendable {
    public struct SignatureCheck: Sendable {
        /// Which signature (`user`, `interface`, `operator`, `manifest (detached)`).
        public let role: String
        /// The key it was checked against, when one was known.
        public let key: String?
        public let status: SignatureStatus
    }

    public struct Finding: Sendable {
        public let code: String
        public let path: String?
        public let reason: String
    }

    public let kind: RecordKind
    public let isCanonical: Bool
    /// Whether this kind's stored bytes must be canonical (manifests are exact bytes; wire-only
    /// shapes are not stored).
    public let mustBeCanonical: Bool
    /// The record's content address (mandateRef, verdictRef, manifestHash, …).
    public let contentAddress: ContentAddress
    public let signatures: [SignatureCheck]
    public let findings: [Finding]
    public let summary: [(String, String)]
}

/// Inspects one record: kind, canonical form, content address, signatures, validation findings.
public enum RecordInspector {
    public struct Options: Sendable {
        /// Keys the record does not carry: interface countersigning keys, authority operator keys.
        public var keys: [Ed25519.PublicKey] = []
        public var kind: RecordKind?
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

    /// - Throws: ``LedgerFormatError`` when the bytes are not a readable JSON object at all
    ///   (the CLI's exit 65); every rule a readable record breaks is a finding instead.
    public static func inspect(_ bytes: [UInt8], options: Options = Options()) throws(LedgerFormatError)
        -> InspectionReport
    {
        let object = try CanonicalJSON.parse(bytes)
        guard let kind = options.kind ?? RecordKind.recognize(object) else {
            throw LedgerFormatError(.unknownKind, "no record kind matches this object's fields (name one with --kind)")
        }
        let canonical = CanonicalJSON.encode(object) == bytes
        let mustBeCanonical = [
            .profile, .mandate, .verdict, .receipt, .writeLogEntry, .statusAttempt, .compromiseReport,
            .revocation,
        ].contains(kind)
        var findings: [InspectionReport.Finding] = []
        var signatures: [InspectionReport.SignatureCheck] = []
        var summary: [(String, String)] = []
        if mustBeCanonical && !canonical {
            findings.append(
                .init(
                    code: LedgerFormatError.Code.nonCanonical.name, path: nil,
                    reason:
                        "stored \(kind.rawValue) files must be canonical JSON (sorted keys, compact, reference escapes)"
                ))
        }
        var address = SHA256.hash(
            kind.signatureKey.map { CanonicalJSON.signingBytes(of: object, omitting: $0) }
                ?? (kind == .manifest ? bytes : CanonicalJSON.encode(object)))

        let decoded: DecodedRecord
        do {
            decoded = try DecodedRecord.decode(bytes, as: kind)
        } catch {
            findings.append(.init(code: error.code.name, path: error.path, reason: error.reason))
            return InspectionReport(
                kind: kind, isCanonical: canonical, mustBeCanonical: mustBeCanonical,
                contentAddress: address, signatures: [], findings: findings, summary: [])
        }

        func addRejection(_ result: Result<VerdictValidator.Outcome, VerdictValidator.Rejection>) {
            switch result {
            case .success(let outcome):
                summary.append(
                    (
                        "validation",
                        outcome.receiptStatus == .stored ? "valid, stored until executeAfter" : "valid, queued"
                    ))
            case .failure(let rejection):
                findings.append(.init(code: "verdict.\(rejection.rule.rawValue)", path: nil, reason: rejection.reason))
            }
        }

        switch decoded {
        case .mandate(let mandate):
            signatures.append(.init(role: "user", key: mandate.userKey, status: mandate.userSignatureStatus))
            let interface = mandate.interfaceSignatureStatus(candidates: options.keys)
            let matching = options.keys.first {
                $0.isValidSignature(
                    mandate.signatures.count > 1 ? mandate.signatures[1] : [], for: mandate.signingBytes)
            }
            signatures.append(.init(role: "interface", key: matching?.onymKey, status: interface))
            summary += [
                ("user", mandate.userKey), ("authority", mandate.authority), ("deviceBinding", mandate.deviceBinding),
                ("classes", mandate.classes.joined(separator: ", ")), ("manifestHash", mandate.manifestHash.hex),
            ]
        case .verdict(let verdict):
            let key =
                options.manifest?.operatorKey ?? options.keys.first {
                    verdict.signatureStatus(operatorKey: $0) == .valid
                }
                ?? (options.keys.count == 1 ? options.keys[0] : nil)
            signatures.append(
                .init(role: "operator", key: key?.onymKey, status: verdict.signatureStatus(operatorKey: key)))
            summary += verdictSummary(verdict)
            if let mandate = options.mandate, let manifest = options.manifest, let now = options.now {
                addRejection(VerdictValidator.validate(verdict, mandate: mandate, manifest: manifest, now: now))
            }
        case .verdictSubmission(let submission):
            address = submission.verdict.ref
            summary += verdictSummary(submission.verdict)
            do {
                let manifest = try submission.manifest()
                summary.append(("consentedManifest", manifest.hash.hex))
                signatures.append(
                    .init(
                        role: "operator", key: manifest.operatorKey.onymKey,
                        status: submission.verdict.signatureStatus(operatorKey: manifest.operatorKey)))
                if submission.verdict.signatureStatus(operatorKey: manifest.operatorKey) != .valid {
                    findings.append(
                        .init(
                            code: "verdict.signatureInvalid", path: "$.verdict.signature",
                            reason: "the verdict signature does not verify under the consented manifest's operator"))
                }
                if manifest.componentId != submission.verdict.authority {
                    findings.append(
                        .init(
                            code: "verdict.manifestMismatch", path: "$.consentedManifest",
                            reason:
                                "the consented manifest is \(manifest.componentId)'s, the verdict is \(submission.verdict.authority)'s"
                        ))
                }
                if let mandate = options.mandate, let now = options.now {
                    addRejection(
                        VerdictValidator.validate(submission.verdict, mandate: mandate, manifest: manifest, now: now))
                }
            } catch {
                findings.append(.init(code: error.code.name, path: error.path, reason: error.reason))
            }
        case .manifest(let manifest):
            summary += [
                ("componentId", manifest.componentId), ("operator", manifest.operatorKey.onymKey),
                ("classes", manifest.classes.map(\.classId).joined(separator: ", ")),
                ("validUntil", manifest.validUntil.rfc3339),
            ]
            if let signature = options.detachedSignature {
                signatures.append(
                    .init(
                        role: "manifest (detached)", key: manifest.operatorKey.onymKey,
                        status: manifest.detachedSignatureStatus(signature)))
            }
        case .writeLogEntry(let entry):
            summary += [
                ("sequence", String(entry.sequence)), ("deviceBinding", entry.deviceBinding),
                ("authorizedBy", entry.authorizedBy), ("bits", "caseOpen=\(entry.caseOpen) banned=\(entry.banned)"),
                ("outcome", entry.outcome),
            ]
            if entry.recomputedHash != entry.entryHash {
                findings.append(
                    .init(
                        code: "chain.entryHash", path: "$.entryHash",
                        reason: "entryHash \(entry.entryHash) but the fields hash to \(entry.recomputedHash)"))
            }
        case .receipt(let receipt):
            summary += [
                ("verdictRef", receipt.verdictRef.hex), ("status", receipt.status.rawValue),
                ("receivedAt", receipt.receivedAt.rfc3339),
            ]
        case .profile(let profile):
            summary += [("profileId", profile.profileId), ("platform", profile.platform)]
        case .statusAttempt(let attempt):
            summary += [
                ("authority", attempt.authority), ("attemptedAt", attempt.attemptedAt.rfc3339),
                ("answered", attempt.answered ? "yes" : "no"),
            ]
            signatures.append(.init(role: "interface", key: nil, status: attempt.signatureStatus(keys: options.keys)))
        case .compromiseReport(let report):
            summary += [("authority", report.authority), ("compromisedAt", report.compromisedAt.rfc3339)]
            signatures.append(.init(role: "operator", key: nil, status: report.signatureStatus(keys: options.keys)))
        case .revocation(let revocation):
            summary += [
                ("authority", revocation.authority), ("trigger", revocation.trigger.rawValue),
                ("effectiveAt", revocation.effectiveAt.rfc3339),
            ]
            signatures.append(
                .init(role: "interface", key: nil, status: revocation.signatureStatus(keys: options.keys)))
        case .caseNotice, .banState, .gateResult:
            break
        }
        for signature in signatures where signature.status == .invalid || signature.status == .missing {
            findings.append(
                .init(
                    code: "signature.\(signature.status.rawValue)", path: nil,
                    reason: "the \(signature.role) signature is \(signature.status == .missing ? "missing" : "invalid")"
                ))
        }
        return InspectionReport(
            kind: kind, isCanonical: canonical, mustBeCanonical: mustBeCanonical,
            contentAddress: address, signatures: signatures, findings: findings, summary: summary)
    }

    private static func verdictSummary(_ verdict: Verdict) -> [(String, String)] {
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
