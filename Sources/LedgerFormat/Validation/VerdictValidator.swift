/// Verdict validation at the interface (profile §6 step 1 / §6.1, reference §4.1
/// `apple/src/verdict.rs::validate`) as a pure function with an injected "now".
///
/// Where Rust and iOS differ (onym-wire.md §7 "Observed") the ledger follows Rust, with one
/// deliberate tightening: the operator signature is always enforced (the reference's
/// `MODERATION_ENFORCE_SIGNATURES` defaults off, which profile §6 says "does not weaken
/// requirement 1"). Each decision is listed in docs/DECISIONS.md.
public enum VerdictValidator {
    /// Reference §4.5: `decidedAt` may be at most 300 s after now.
    public static let maxFutureSkewSeconds: Int64 = 300

    public enum Outcome: Equatable, Sendable {
        /// Execute at the device's next session (receipt `queued`).
        case execute
        /// A valid ban whose `executeAfter` is in the future (receipt `stored`).
        case storeUntil(Instant)

        public var receiptStatus: VerdictReceipt.Status {
            switch self {
            case .execute: .queued
            case .storeUntil: .stored
            }
        }
    }

    /// Why a verdict was refused; `rule` names the check, in the reference's order.
    public struct Rejection: Error, Equatable, Sendable, CustomStringConvertible {
        public enum Rule: String, Sendable, CaseIterable {
            /// `mandateRef` does not name the mandate (reference `no_mandate`).
            case noMandate
            /// The manifest's bytes do not hash to `mandate.manifestHash`, or its componentId is not the mandate's authority.
            case manifestMismatch
            case signatureInvalid
            /// `decidedAt` more than 300 s in the future (`verdict_not_yet_valid`).
            case notYetValid
            case authorityMismatch
            case deviceBindingMismatch
            case accusedMismatch
            /// `class_outside_mandate`.
            case classOutsideMandate
            case emptyReasoning
            case marksMismatch
            case unexpectedSanctionFields
            case openCaseFinal
            case classNotInManifest
            case appealDeadline
            case executeAfter
            case banExpires
        }

        public let rule: Rule
        public let reason: String

        public init(_ rule: Rule, _ reason: String) {
            self.rule = rule
            self.reason = reason
        }

        public var description: String { "\(rule.rawValue): \(reason)" }

        public static func == (lhs: Rejection, rhs: Rejection) -> Bool { lhs.rule == rhs.rule }
    }

    /// Validates `verdict` against the mandate it names and the manifest that mandate consented to.
    /// - Parameter signature: the operator signature's status when the caller already checked it
    ///   (the verifier checks every signature once, on both cores); nil to check it here.
    public static func validate(
        _ verdict: Verdict, mandate: Mandate, manifest: AuthorityManifest, now: Instant,
        signature: SignatureStatus? = nil
    ) -> Result<Outcome, Rejection> {
        func reject(_ rule: Rejection.Rule, _ reason: String) -> Result<Outcome, Rejection> {
            .failure(Rejection(rule, reason))
        }
        guard verdict.mandateRef == mandate.ref else {
            return reject(.noMandate, "verdict names mandate \(verdict.mandateRef), not \(mandate.ref)")
        }
        guard manifest.hash == mandate.manifestHash else {
            return reject(
                .manifestMismatch,
                "consented manifest hashes to \(manifest.hash), mandate pinned \(mandate.manifestHash)")
        }
        guard manifest.componentId == mandate.authority else {
            return reject(
                .manifestMismatch,
                "manifest componentId \(manifest.componentId) is not the mandate's authority \(mandate.authority)")
        }
        // 1. Signature (verify_strict) with the consented manifest's operator key.
        guard (signature ?? verdict.signatureStatus(operatorKey: manifest.operatorKey)) == .valid else {
            return reject(.signatureInvalid, "signature does not verify under operator \(manifest.operatorKey)")
        }
        // 2. decidedAt not in the future beyond the skew.
        guard verdict.decidedAt <= now.adding(seconds: maxFutureSkewSeconds) else {
            return reject(.notYetValid, "decidedAt \(verdict.decidedAt) is more than 300 s after \(now)")
        }
        // 3. Bindings.
        guard verdict.authority == mandate.authority else {
            return reject(.authorityMismatch, "verdict authority \(verdict.authority) is not \(mandate.authority)")
        }
        guard verdict.deviceBinding == mandate.deviceBinding else {
            return reject(.deviceBindingMismatch, "verdict binding \(verdict.deviceBinding) is not the mandate's")
        }
        guard verdict.accusedKeys.contains(mandate.userKey) else {
            return reject(.accusedMismatch, "accusedKeys does not contain the mandate's user \(mandate.userKey)")
        }
        guard mandate.classes.contains(verdict.classId) else {
            return reject(.classOutsideMandate, "class \(verdict.classId) is not among the mandate's classes")
        }
        // 4. Reasoning, trimmed (Rust) rather than untrimmed (iOS).
        guard !verdict.reasoning.trimmingWhitespace.isEmpty else {
            return reject(.emptyReasoning, "reasoning is empty")
        }
        // 5. Per disposition.
        switch verdict.disposition {
        case .openCase:
            guard verdict.marks == Verdict.Marks(caseOpen: true, banned: false) else {
                return reject(.marksMismatch, "open-case marks must be {case-open: true, banned: false}")
            }
            guard verdict.banExpires == nil, verdict.executeAfter == nil, verdict.appealDeadline == nil else {
                return reject(.unexpectedSanctionFields, "open-case carries banExpires, executeAfter or appealDeadline")
            }
            guard !verdict.isFinal else { return reject(.openCaseFinal, "an open-case verdict is never final") }
            return .success(.execute)
        case .dismiss:
            guard verdict.marks == Verdict.Marks(caseOpen: false, banned: false) else {
                return reject(.marksMismatch, "dismiss marks must be {case-open: false, banned: false}")
            }
            return .success(.execute)
        case .ban:
            // Rust checks class-in-manifest only for bans (iOS: every disposition); the ledger follows Rust.
            guard let terms = manifest.violationClass(verdict.classId) else {
                return reject(.classNotInManifest, "class \(verdict.classId) is not declared by the manifest")
            }
            guard verdict.marks == Verdict.Marks(caseOpen: false, banned: true) else {
                return reject(.marksMismatch, "ban marks must be {case-open: false, banned: true}")
            }
            let expectedAppeal = verdict.decidedAt.adding(days: terms.appealWindowDays)
            guard let appealDeadline = verdict.appealDeadline,
                appealDeadline.isWithinReferenceTolerance(of: expectedAppeal)
            else {
                return reject(
                    .appealDeadline,
                    "appealDeadline must be decidedAt + \(terms.appealWindowDays) days = \(expectedAppeal)")
            }
            let expectedExecute = terms.appealEffect == .suspensive ? appealDeadline : verdict.decidedAt
            guard let executeAfter = verdict.executeAfter, executeAfter.isWithinReferenceTolerance(of: expectedExecute)
            else {
                return reject(
                    .executeAfter,
                    "executeAfter must be \(terms.appealEffect == .suspensive ? "appealDeadline" : "decidedAt") (\(terms.appealEffect.rawValue) class) = \(expectedExecute)"
                )
            }
            switch terms.banTerm {
            case .permanent:
                guard verdict.banExpires == nil else {
                    return reject(.banExpires, "a permanent class's ban carries no banExpires")
                }
            case .days(let days):
                let expectedExpiry = executeAfter.adding(days: days)
                guard let banExpires = verdict.banExpires, banExpires.isWithinReferenceTolerance(of: expectedExpiry)
                else {
                    return reject(.banExpires, "banExpires must be executeAfter + \(days) days = \(expectedExpiry)")
                }
            }
            return .success(executeAfter > now ? .storeUntil(executeAfter) : .execute)
        }
    }
}
