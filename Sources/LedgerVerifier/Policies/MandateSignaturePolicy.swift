import LedgerStore
import LedgerFormat

/// Reference §2, §3.3: `signatures[0]` by the mandate's user and `signatures[1]` by the interface's
/// countersigning key for the mandate's authority (root or a rotated epoch the descriptor lists),
/// both over the same canonical bytes without `signatures`; strict Ed25519.
public struct MandateSignaturePolicy: LedgerPolicy {
    public static let name = "MandateSignaturePolicy"
    public static let judgedSignatures = JudgedSignature.declared(by: [Mandate.self])

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        var failures: [PolicyFailure] = []
        for file in step.files {
            guard let mandate = file.mandate else { continue }
            let record = mandate.ref.hex
            if file.checks.signatures[.user] != .valid {
                failures.append(
                    failure(
                        step, path: file.path, record: record,
                        "the user signature is \(file.checks.signatures[.user]?.rawValue ?? "unchecked")"))
            }
            switch file.checks.signatures[.interface] {
            case .valid?: break
            case .missing?:
                failures.append(
                    failure(step, path: file.path, record: record, "the interface countersignature is missing"))
            case .keyUnknown?:
                failures.append(
                    failure(
                        step, path: file.path, record: record,
                        "the descriptor lists no countersigning key for \(mandate.authority)"))
            default:
                failures.append(
                    failure(
                        step, path: file.path, record: record,
                        "the interface countersignature verifies under no key the descriptor lists for \(mandate.authority)"
                    ))
            }
        }
        return failures
    }
}
