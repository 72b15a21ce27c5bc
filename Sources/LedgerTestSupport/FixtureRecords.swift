public import LedgerFormat

/// Builders for signed mandates and verdicts that follow the reference's construction rules
/// (authority `cases.rs`), with a hook to break any field before signing.
public enum FixtureRecords {
    /// A mandate signed by `user` and countersigned by the interface's key for the authority.
    public static func mandate(
        user: Ed25519.PrivateKey, interface: FixtureInterface, authority: FixtureAuthority, classes: [String],
        deviceBinding: String, acceptedAt: String, epoch: UInt32 = 0, countersign: Bool = true,
        edit: (inout JSONObject) -> Void = { _ in }
    ) -> JSONObject {
        var unsigned = JSONObject([
            ("mandateVersion", .integer(1)), ("user", .string(user.publicKey.onymKey)),
            ("interface", .string(interface.componentId)), ("authority", .string(authority.componentId)),
            ("manifestHash", .string(authority.manifestHash.hex)), ("classes", .array(classes.map { .string($0) })),
            ("deviceBinding", .string(deviceBinding)), ("acceptedAt", .string(acceptedAt)),
        ])
        edit(&unsigned)
        let bytes = CanonicalJSON.encode(unsigned)
        var signatures: [JSONValue] = [.string(Base64.encode(user.signature(for: bytes)))]
        if countersign {
            let key = interface.countersigningKey(for: authority.componentId, epoch: epoch)
            signatures.append(.string(Base64.encode(key.signature(for: bytes))))
        }
        unsigned.set("signatures", .array(signatures))
        return unsigned
    }

    public enum Disposition: Sendable {
        case openCase
        case dismiss
        case ban
    }

    /// A verdict for `mandate` built as the authority builds it at `decidedAt`, then signed.
    public static func verdict(
        _ disposition: Disposition, caseId: String, mandate: Mandate, authority: FixtureAuthority, classId: String,
        decidedAt: String,
        reasoning: String = "sha256:abababababababababababababababababababababababababababababababab",
        extra: [(String, JSONValue)] = [], edit: (inout JSONObject) -> Void = { _ in }
    ) -> JSONObject {
        var verdict = JSONObject([
            ("verdictVersion", .integer(1)), ("caseId", .string(caseId)), ("authority", .string(authority.componentId)),
            ("mandateRef", .string(mandate.ref.hex)), ("accusedKeys", .array([.string(mandate.userKey.text)])),
            ("deviceBinding", .string(mandate.deviceBinding.text)), ("classId", .string(classId)),
            ("reasoning", .string(reasoning)), ("decidedAt", .string(decidedAt)),
        ])
        let decided = Instant.parse(decidedAt)!
        switch disposition {
        case .openCase:
            verdict.set("disposition", .string("open-case"))
            verdict.set("marks", marks(caseOpen: true, banned: false))
            verdict.set("final", .bool(false))
        case .dismiss:
            verdict.set("disposition", .string("dismiss"))
            verdict.set("marks", marks(caseOpen: false, banned: false))
            verdict.set("final", .bool(true))
        case .ban:
            let terms = authority.manifest().violationClass(WireString(classId))!
            let appealDeadline = decided.adding(days: terms.appealWindowDays)
            let executeAfter = terms.appealEffect == .suspensive ? appealDeadline : decided
            verdict.set("disposition", .string("ban"))
            verdict.set("marks", marks(caseOpen: false, banned: true))
            verdict.set("final", .bool(false))
            verdict.set("appealDeadline", .string(appealDeadline.rfc3339))
            verdict.set("executeAfter", .string(executeAfter.rfc3339))
            if case .days(let days) = terms.banTerm {
                verdict.set("banExpires", .string(executeAfter.adding(days: days).rfc3339))
            }
        }
        for (key, value) in extra { verdict.set(key, value) }
        edit(&verdict)
        return authority.sign(verdict)
    }

    /// `{verdict, consentedManifest}` as an authority delivers it.
    public static func submission(_ verdict: JSONObject, authority: FixtureAuthority) -> JSONObject {
        JSONObject([
            ("verdict", .object(verdict)), ("consentedManifest", .string(Base64.encode(authority.manifestBytes))),
        ])
    }

    private static func marks(caseOpen: Bool, banned: Bool) -> JSONValue {
        .object(JSONObject([("case-open", .bool(caseOpen)), ("banned", .bool(banned))]))
    }
}

extension FixtureRecords {
    /// Signs `unsigned` with `key` over its canonical bytes without `signature`.
    public static func signed(_ unsigned: JSONObject, with key: Ed25519.PrivateKey) -> JSONObject {
        var object = unsigned
        object.remove("signature")
        object.set("signature", .string(Base64.encode(key.signature(for: CanonicalJSON.encode(object)))))
        return object
    }

    /// The interface's signed attempt to reach `authority`.
    public static func statusAttempt(
        interface: FixtureInterface, authority: String, attemptedAt: String, answeredAt: String? = nil
    ) -> JSONObject {
        var object = JSONObject([
            ("attemptVersion", .integer(1)), ("interface", .string(interface.componentId)),
            ("authority", .string(authority)), ("attemptedAt", .string(attemptedAt)),
            ("answered", .bool(answeredAt != nil)),
        ])
        if let answeredAt { object.set("answeredAt", .string(answeredAt)) }
        return signed(object, with: interface.countersigningKey(for: authority))
    }

    /// An authority's signed report of its own compromise.
    public static func compromiseReport(authority: FixtureAuthority, compromisedAt: String, reportedAt: String)
        -> JSONObject
    {
        signed(
            JSONObject([
                ("compromiseReportVersion", .integer(1)), ("authority", .string(authority.componentId)),
                ("manifestHash", .string(authority.manifestHash.hex)), ("compromisedAt", .string(compromisedAt)),
                ("reportedAt", .string(reportedAt)),
            ]), with: authority.operatorKey)
    }

    /// The interface's signed revocation determination.
    public static func revocation(
        interface: FixtureInterface, authority: String, trigger: String, effectiveAt: String, determinedAt: String,
        evidence: [ContentAddress]
    ) -> JSONObject {
        signed(
            JSONObject([
                ("revocationVersion", .integer(1)), ("interface", .string(interface.componentId)),
                ("authority", .string(authority)), ("trigger", .string(trigger)), ("effectiveAt", .string(effectiveAt)),
                ("determinedAt", .string(determinedAt)), ("evidence", .array(evidence.map { .string($0.hex) })),
            ]), with: interface.countersigningKey(for: authority))
    }

    /// A recovery or unban grant (onym-wire §3.12), signed by `signer` (default: the authority's operator key).
    public static func grant(
        _ type: String, caseId: String, grantee: String, authority: FixtureAuthority, issuedAt: String,
        signer: Ed25519.PrivateKey? = nil
    ) -> JSONObject {
        signed(
            JSONObject([
                ("grantType", .string(type)), ("grantVersion", .integer(1)), ("caseId", .string(caseId)),
                ("grantee", .string(grantee)), ("authority", .string(authority.componentId)),
                ("issuedAt", .string(issuedAt)),
            ]), with: signer ?? authority.operatorKey)
    }

    /// The vendor's redemption of `grant` (docs/FORMAT.md "Grants and redemptions").
    public static func redemption(
        of grant: JSONObject, mandateRef: ContentAddress, from: String, to: String?, redeemedAt: String
    ) -> JSONObject {
        var object = JSONObject([
            ("redemptionVersion", .integer(1)),
            ("grantRef", .string(SHA256.hash(CanonicalJSON.signingBytes(of: grant, omitting: "signature")).hex)),
            ("grantType", grant["grantType"]!), ("caseId", grant["caseId"]!), ("mandateRef", .string(mandateRef.hex)),
            ("fromBinding", .string(from)), ("redeemedAt", .string(redeemedAt)),
        ])
        if let to { object.set("toBinding", .string(to)) }
        return object
    }
}
