internal import CLibgit2

/// The git side of the ledger. (Grows with the writer issue; for now it proves the libgit2 link.)
public enum LedgerWriterInfo {
    /// The linked libgit2 version as `major.minor.revision`.
    public static var libgit2Version: String {
        var major: Int32 = 0
        var minor: Int32 = 0
        var revision: Int32 = 0
        git_libgit2_version(&major, &minor, &revision)
        return "\(major).\(minor).\(revision)"
    }
}
