import LedgerStore
import LedgerFormat

/// docs/FORMAT.md, "Descriptor": the root commit writes `ledger.json` and `keys/allowed_signers` (and the profile
/// object the descriptor declares, if it declares one); afterwards only a log handover changes the descriptor (its
/// `log` alone, to a key and origin the log never had: docs/FORMAT.md "Log handover"); a signer rotation is a commit
/// whose only change is `keys/allowed_signers` (and the `checkpoint` every commit updates), which must still list a
/// key.
public struct DescriptorPolicy: LedgerPolicy {
    public static let name = "DescriptorPolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        var failures: [PolicyFailure] = []
        let descriptorChanges = step.changes.filter { $0.path == LedgerLayout.descriptorPath }
        let signerChanges = step.changes.filter { $0.path == LedgerLayout.allowedSignersPath }
        if state.descriptor == nil {
            if !descriptorChanges.contains(where: { $0.kind == .added }) {
                failures.append(failure(step, path: LedgerLayout.descriptorPath, "the first commit has no descriptor"))
            }
            if !signerChanges.contains(where: { $0.kind == .added }) {
                failures.append(
                    failure(step, path: LedgerLayout.allowedSignersPath, "the first commit has no allowed signers"))
            }
            // The profile the descriptor declares is the ledger's contract: it is stored beside it, in the first
            // commit (docs/FORMAT.md, "Descriptor"), or nobody can read what the ledger claims to follow.
            if let declared = state.descriptor(for: step)?.profile,
                !step.files.contains(where: { file in
                    if case .success(.record(let profile as EnforcementProfile)) = file.content {
                        return profile.ref == declared
                    }
                    return false
                })
            {
                failures.append(
                    failure(
                        step, path: LedgerLayout.descriptorPath,
                        "the descriptor declares profile \(declared.hex), which the first commit does not store"))
            }
        } else {
            for change in descriptorChanges {
                if change.kind == .modified,
                    let problem = Self.handoverProblem(step, previous: state.descriptor, retired: state.retiredLogs)
                {
                    failures.append(failure(step, path: change.path, problem))
                } else if change.kind != .modified {
                    failures.append(
                        failure(step, path: change.path, "the descriptor was \(change.kind) after the first commit"))
                }
            }
            if let rotation = signerChanges.first {
                if rotation.kind == .deleted {
                    failures.append(failure(step, path: rotation.path, "the allowed signers file was deleted"))
                } else {
                    let others = step.changes.filter {
                        $0.path != LedgerLayout.allowedSignersPath && $0.path != LedgerLayout.checkpointPath
                    }
                    if !others.isEmpty {
                        failures.append(
                            failure(
                                step, path: rotation.path,
                                "a rotation commit changes \(others.count) other path(s); a rotation changes only the allowed signers"
                            ))
                    }
                }
            }
        }
        for file in step.files {
            if case .success(.allowedSigners(let signers)) = file.content, signers.keys.isEmpty {
                failures.append(failure(step, path: file.path, "the allowed signers file lists no key"))
            }
        }
        return failures
    }

    /// Why a commit that replaces the descriptor is not a log handover (docs/FORMAT.md, "Log handover"), or nil
    /// when it is one: the only change to the descriptor is its `log` — a new key under a new origin — and
    /// the commit changes nothing else but the checkpoint (which CheckpointPolicy holds to the new log's
    /// first: the old log's last size and root, signed by the new key).
    static func handoverProblem(_ step: CommitStep, previous: LedgerDescriptor?, retired: [NoteKey]) -> String? {
        guard let previous, let from = previous.log else {
            return "the descriptor changed after the first commit; only a log handover may change it"
        }
        var next: LedgerDescriptor?
        for file in step.files where file.path == LedgerLayout.descriptorPath {
            if case .success(.descriptor(let value)) = file.content { next = value }
        }
        guard let next, let to = next.log else {
            return "the replaced descriptor does not decode with a log key; only a log handover may change it"
        }
        var unchanged = next
        unchanged.log = from
        guard unchanged == previous else {
            return "the descriptor changed beyond its log key; a log handover changes only `log`"
        }
        for earlier in [from] + retired
        where to.publicKey == earlier.publicKey || to.name.hasSameBytes(as: earlier.name) {
            return "a log handover names a new key under a new origin, never one the ledger's log had: "
                + "\(to) has the \(to.publicKey == earlier.publicKey ? "key" : "origin") of \(earlier)"
        }
        let others = step.changes.filter {
            $0.path != LedgerLayout.descriptorPath && $0.path != LedgerLayout.checkpointPath
        }
        guard others.isEmpty else {
            return "a log handover changes only the descriptor and the checkpoint; this commit changes "
                + "\(others.count) other path(s)"
        }
        return nil
    }
}
