import LedgerStore
import LedgerFormat

/// The enforcement profile §1 isolation rule and §11 criterion 5: the ledger accounts for one Apple developer account's
/// bits, written by its own DeviceCheck writer. A write in the Android variant shape (`fieldsWritten`, a Play Integrity
/// recall writer) in an Apple DeviceCheck ledger is a write path outside the declared scope.
public struct AccountScopePolicy: LedgerPolicy {
    public static let name = "AccountScopePolicy"
    /// The write was made and logged: an authentic record of a write outside the declared scope.
    public static let findingKind = PolicyFailure.Kind.conduct

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        let descriptor = state.descriptor(for: step)
        let isApple = descriptor?.appleAccount != nil || state.profilePlatform == "apple-devicecheck"
        guard isApple else { return [] }
        return step.files.compactMap { file in
            guard let entry = file.entry, entry.fieldsWritten != nil else { return nil }
            return failure(
                step, path: file.path, record: "sequence \(entry.sequence)",
                "a write by a non-DeviceCheck writer (fieldsWritten) in an Apple account's ledger",
                write: PolicyFailure.WriteDetail(
                    sequence: entry.sequence, recordedAt: entry.recordedAt, binding: entry.deviceBinding,
                    written: "\(DeviceBits(caseOpen: entry.caseOpen, banned: entry.banned)) by \(entry.authorizedBy)",
                    rulesGive: "no write outside the Apple DeviceCheck writer"))
        }
    }
}
