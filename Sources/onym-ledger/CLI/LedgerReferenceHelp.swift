import LedgerStore

/// How `show` and `prove` document the references they take (``LedgerReference``), and how a failed
/// look-up becomes an exit code.
enum LedgerReferenceHelp {
    private static let kinds = LedgerReference.recordKinds

    /// The reference grammar with examples, for `show --help` and `prove --help`.
    static let text = """
        A reference is one of:
          KIND:HEX   the record of that kind stored under HEX (4 to 64 hex digits, a prefix of its name);
                     KIND is \(kinds.prefix(5).joined(separator: ", ")),
                     \(kinds.dropFirst(5).joined(separator: ", ")).
                     A receipt is named by the verdict it receipts: receipt:<verdictRef> is that verdict's receipt.
          commit:REV a commit: its id, a prefix, or a git revision (main~3)
          log:N      write-log entry N
          PATH       a path in the tip's tree (ledger.json, batches/…/verdicts/3/3f2a….json)
          bare HEX   a record's content address or a prefix of it (never a file merely named by it: a bare
                     verdictRef is the verdict, not its receipt), a commit, or a write-log sequence number.
        A reference that names more than one thing is refused (exit 64) with each candidate's kind and path;
        one that names nothing exits 65.
        Examples: 3f2a9c01   verdict:3f2a9c01   receipt:3f2a9c01   mandate:0a7d…   commit:d15b1e4   log:151
        """
}

extension CLIError {
    /// A malformed or ambiguous reference is a refused request (64); one naming nothing, or a ledger that
    /// cannot be read, is bad input (65).
    init(_ error: LedgerBrowser.BrowseError) {
        self.init(message: error.description, exitCode: error.isRefusedReference ? .usage : .dataError)
    }
}
