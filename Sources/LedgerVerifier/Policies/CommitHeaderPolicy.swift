import LedgerFormat
import LedgerWriter
/// DESIGN §6.1: a commit carries only the headers a ledger writer makes — `tree`, `parent`,
/// `author`, `committer` and one `gpgsig`. Anything else (`encoding`, `mergetag`, `gpgsig-sha256`,
/// invented headers) could carry meaning the verifier does not check.
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
        return failures
    }
}
