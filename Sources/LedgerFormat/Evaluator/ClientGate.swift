/// The client's gate derivation (profile §5.2, reference §4.7 iOS `GateCheckRepository.derive`):
/// what the app shows given its persisted last success, the wall clock and whether the backend
/// answered. Pure; times are injected.
public struct ClientGate: Sendable {
    /// Default check interval (P1D) and offline grace (P3D).
    public static let interval: Int64 = 86_400
    public static let grace: Int64 = 3 * 86_400

    public private(set) var lastResult: GateResult?
    public private(set) var lastSuccessAt: Instant?
    /// The generation of the newest check whose answer was applied.
    public private(set) var appliedGeneration: Int = 0

    public init(lastResult: GateResult? = nil, lastSuccessAt: Instant? = nil) {
        self.lastResult = lastResult
        self.lastSuccessAt = lastSuccessAt
    }

    /// A backend answer for the check started as `generation` (checks are numbered in start order).
    /// A stale, slow answer — an older generation than one already applied — is dropped, so a late
    /// `clear` cannot overwrite a newer `banned` (profile §5.2).
    /// - Returns: whether the answer was applied.
    @discardableResult
    public mutating func receive(_ result: GateResult, generation: Int, at time: Instant) -> Bool {
        guard generation > appliedGeneration else { return false }
        appliedGeneration = generation
        lastResult = result
        lastSuccessAt = time
        return true
    }

    /// What the app shows at `now` when the backend cannot be reached.
    public func offlineAnswer(at now: Instant) -> GateResult {
        guard let lastResult, let lastSuccessAt else { return .checkRequired(.neverChecked) }
        if now < lastSuccessAt { return .checkRequired(.clockRollback) }
        if now.seconds - lastSuccessAt.seconds > Self.grace { return .checkRequired(.offlineGraceExpired) }
        return lastResult
    }

    /// When the next periodic check is due.
    public var nextCheckDue: Instant? { lastSuccessAt?.adding(seconds: Self.interval) }
}
