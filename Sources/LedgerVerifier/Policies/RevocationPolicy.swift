import LedgerFormat
import LedgerStore

/// Onym-wire §9, profile §6 item 4: designation revocation is bounded and auditable. Status attempts
/// and revocation determinations are signed by this ledger's interface (its countersigning key for
/// the authority), compromise reports by the authority's operator key; and every determination is
/// justified by the triggers it cites (`DesignationRevocation/unjustified(_:reports:attempts:allAttempts:manifests:)`).
public struct RevocationPolicy: LedgerPolicy {
    public static let name = "RevocationPolicy"
    public static let judgedSignatures = JudgedSignature.declared(
        by: [StatusAttempt.self, CompromiseReport.self, RevocationDetermination.self])

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        var failures: [PolicyFailure] = []
        let descriptor = state.descriptor(for: step)
        // Every attempt and manifest so far, gathered only for a commit that stores a revocation.
        var everything: (attempts: [StatusAttempt], manifests: [AuthorityManifest])?
        for file in step.files {
            let interface: WireString?
            let record: String
            // Each kind asked for by its code first (`LoadedFile.record`): a cast that fails is the costly kind.
            if let attempt = file.statusAttempt {
                (interface, record) = (attempt.interface, attempt.ref.hex)
            } else if let report = file.record(CompromiseReport.self) {
                (interface, record) = (nil, report.ref.hex)
                if file.checks.referenced(AuthorityManifest.self)?.componentId != report.authority {
                    failures.append(
                        failure(
                            step, path: file.path, record: record,
                            "names manifest \(report.manifestHash.hex), which is not a manifest of \(report.authority) in the ledger"
                        ))
                    continue
                }
            } else if let revocation = file.record(RevocationDetermination.self) {
                (interface, record) = (revocation.interface, revocation.ref.hex)
                let (attempts, manifests) =
                    everything ?? (
                        state.maps.statusAttempts + step.files.compactMap(\.statusAttempt),
                        state.maps.manifests + step.files.compactMap(\.manifest)
                    )
                everything = (attempts, manifests)
                if let reason = DesignationRevocation.unjustified(
                    revocation, reports: file.checks.references.all(CompromiseReport.self),
                    attempts: file.checks.references.all(StatusAttempt.self),
                    allAttempts: attempts,
                    manifests: manifests)
                {
                    failures.append(failure(step, path: file.path, record: record, "unjustified revocation: \(reason)"))
                }
            } else {
                continue
            }
            if let interface, let descriptor, interface != descriptor.interface {
                failures.append(
                    failure(
                        step, path: file.path, record: record, "signed for \(interface), not \(descriptor.interface)"))
            }
            for rule in file.declaration.map({ type(of: $0).signatures }) ?? []
            where file.checks.signatures[rule.role] != .valid {
                failures.append(
                    failure(
                        step, path: file.path, record: record,
                        "the signature is \(file.checks.signatures[rule.role]?.rawValue ?? "unchecked")"))
            }
        }
        return failures
    }
}
