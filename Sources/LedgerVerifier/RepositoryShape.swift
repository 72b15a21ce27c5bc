import LedgerFormat
import LedgerStore

#if canImport(Glibc)
    import Glibc
#endif

/// What around the objects could make stock git show another ledger than the verifier reads:
/// the verifier reads `refs/heads/main` and the objects it reaches, nothing else. So:
///
/// * `HEAD` must name `refs/heads/main` (else `git log` shows another history);
/// * no `info/grafts`, no `shallow` file (git would rewrite parents), no `refs/replace/` refs (git would
///   substitute objects; libgit2 does not), no `objects/info/alternates` (objects from elsewhere: the
///   ledger must be self-contained to be handed on).
///
/// Other refs (tags, branches) are ignored: they are not the ledger. Findings are integrity findings of
/// `RepositoryPolicy`, reported once per run, before any commit.
enum RepositoryShape {
    static let policyName = "RepositoryPolicy"

    static func findings(_ repository: Repository) -> [PolicyFailure] {
        let base = repository.gitDirectory.hasSuffix("/") ? repository.gitDirectory : repository.gitDirectory + "/"
        var reasons: [String] = []
        if let head = DurableFile.read(base + "HEAD").map({ String(decoding: $0, as: UTF8.self) }),
            head.trimmingWhitespace != "ref: \(LedgerLayout.branch)"
        {
            reasons.append(
                "HEAD is '\(head.trimmingWhitespace)', not 'ref: \(LedgerLayout.branch)': git would show another history"
            )
        }
        for (path, what) in [
            ("info/grafts", "grafts rewrite parents for git"), ("shallow", "a shallow file hides history from git"),
            ("objects/info/alternates", "alternates borrow objects from another repository"),
        ] where access(base + path, F_OK) == 0 {
            reasons.append("\(path) exists: \(what)")
        }
        let replaceFolder = base + "refs/replace"
        if let directory = opendir(replaceFolder) {
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." {
                    reasons.append("refs/replace/\(name) exists: git would show a replacement object")
                    break
                }
            }
        }
        if let packed = DurableFile.read(base + "packed-refs").map({ String(decoding: $0, as: UTF8.self) }),
            packed.contains(" refs/replace/")
        {
            reasons.append("packed-refs lists refs/replace/: git would show replacement objects")
        }
        return reasons.map { PolicyFailure(policy: policyName, commit: nil, reason: $0) }
    }
}
