import LedgerFormat
import LedgerStore
import LedgerWriter

extension OnymLedger {
    /// `repack`: one pack instead of one per batch.
    struct Repack: Command {
        static let configuration = CommandConfiguration(
            commandName: "repack",
            abstract: "Repack the ledger's objects into one pack (commit ids do not change).",
            usage: "repack LEDGER",
            discussion: """
                Every append writes its batch as one pack without deltas (and merges small packs); repack writes
                one delta-compressed pack with everything reachable from the branch and removes the packs it
                replaces — a ledger appended one record at a time shrinks several times. It takes the writer
                lock, so appends wait for it. append suggests it when the packs have doubled since the last one.
                """)

        let ledger: String

        init(parsing arguments: inout Arguments) throws(CLIError) {
            let rest = try arguments.positionals()
            guard rest.count == 1 else { throw .usage("repack takes one LEDGER") }
            ledger = rest[0]
        }

        func run() throws(CLIError) -> ExitCode {
            do {
                let appender = try Appender.open(ledger)
                defer { appender.close() }
                let replaced = try appender.repack()
                Output.out("repacked \(ledger): \(replaced) packs replaced by one")
            } catch {
                throw CLIError(error)
            }
            return .success
        }
    }
}
