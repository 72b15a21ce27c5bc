import LedgerFormat
import LedgerStore
/// docs/FORMAT.md, "Commits": a commit carries only the headers a ledger writer makes —
/// `tree`, `parent`, `author`, `committer` and one `gpgsig`, in that order — and its author and
/// committer are exactly `onym-ledger <ledger@onym.invalid>` at the commit's time with offset `+0000`.
/// Anything else (`encoding`, `mergetag`, `gpgsig-sha256`, invented headers, another identity or time
/// zone) could carry meaning the verifier does not check.
public struct CommitHeaderPolicy: LedgerPolicy {
    public static let name = "CommitHeaderPolicy"
    static let allowed = ["tree", "parent", "author", "committer", "gpgsig"]

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        var failures: [PolicyFailure] = []
        // Read on bytes, as git reads a commit: Swift's characters take CR LF for one line ending, so a CR at
        // the end of the signature's last line would hide the header after it from a character reading.
        let header = Array(step.commit.rawHeader.utf8)
        if header.contains(0x0D) { failures.append(failure(step, "a commit header holds a carriage return")) }
        let lines = header.split(separator: 0x0A, omittingEmptySubsequences: false)
        var counts: [String: Int] = [:]
        var keys: [String] = []
        for line in lines {
            guard let first = line.first, first != 0x20 else { continue }
            let key = String(decoding: line.prefix { $0 != 0x20 }, as: UTF8.self)
            counts[key, default: 0] += 1
            keys.append(key)
            if !Self.allowed.contains(where: { $0.hasSameBytes(as: key) }) {
                failures.append(failure(step, "unknown commit header '\(key)'"))
            }
        }
        for key in ["tree", "author", "committer"] where counts[key, default: 0] != 1 {
            failures.append(failure(step, "header '\(key)' appears \(counts[key, default: 0]) times"))
        }
        if counts["gpgsig", default: 0] > 1 {
            failures.append(failure(step, "\(counts["gpgsig"]!) gpgsig headers; exactly one signature is allowed"))
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
            let line = lines.first { $0.starts(with: (role + " ").utf8) }
            if let value = line?.dropFirst(role.utf8.count + 1), !value.elementsEqual(expected.utf8) {
                failures.append(
                    failure(
                        step,
                        "\(role) is '\(String(decoding: value, as: UTF8.self))'; a ledger commit's is '\(expected)'"))
            }
        }
        return failures
    }
}
