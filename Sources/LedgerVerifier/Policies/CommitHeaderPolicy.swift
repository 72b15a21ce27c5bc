import LedgerFormat
import LedgerStore
/// docs/FORMAT.md, "Commits": a commit carries only the headers a ledger writer makes —
/// `tree`, `parent`, `author`, `committer` and one `gpgsig`, in that order — and its author and
/// committer are exactly `onym-ledger <ledger@onym.invalid>` at the commit's time with offset `+0000`.
/// Anything else (`encoding`, `mergetag`, `gpgsig-sha256`, invented headers, another identity or time
/// zone) could carry meaning the verifier does not check.
public struct CommitHeaderPolicy: LedgerPolicy {
    public static let name = "CommitHeaderPolicy"
    static let allowed: Set<String> = ["tree", "parent", "author", "committer", "gpgsig"]

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        var failures: [PolicyFailure] = []
        var counts: [String: Int] = [:]
        for line in step.commit.rawHeader.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let first = line.first, first != " " else { continue }
            let key = String(line.prefix { $0 != " " })
            counts[key, default: 0] += 1
            if !Self.allowed.contains(key) {
                failures.append(failure(step, "unknown commit header '\(key)'"))
            }
        }
        for key in ["tree", "author", "committer"] where counts[key, default: 0] != 1 {
            failures.append(failure(step, "header '\(key)' appears \(counts[key, default: 0]) times"))
        }
        if counts["gpgsig", default: 0] > 1 {
            failures.append(failure(step, "\(counts["gpgsig"]!) gpgsig headers; exactly one signature is allowed"))
        }
        let keys = step.commit.rawHeader.split(separator: "\n").filter { $0.first != " " }.map {
            String($0.prefix { $0 != " " })
        }
        let order =
            ["tree"] + Array(repeating: "parent", count: counts["parent", default: 0]) + ["author", "committer"]
            + (counts["gpgsig"] == nil ? [] : ["gpgsig"])
        if keys != order, failures.isEmpty {
            failures.append(
                failure(
                    step,
                    "headers in the order \(keys.joined(separator: ", ")); a ledger commit has \(order.joined(separator: ", "))"
                ))
        }
        let identity = CommitIdentity(time: step.commit.time)
        let expected = "\(identity.name) <\(identity.email)> \(identity.time) +0000"
        for role in ["author", "committer"] {
            let line = step.commit.rawHeader.split(separator: "\n").first { $0.hasPrefix(role + " ") }
            if let line, line.dropFirst(role.count + 1) != Substring(expected) {
                failures.append(
                    failure(step, "\(role) is '\(line.dropFirst(role.count + 1))'; a ledger commit's is '\(expected)'"))
            }
        }
        return failures
    }
}
