import Foundation
import LedgerFormat
import LedgerStore
import LedgerVerifier
import LedgerWriter

extension OnymLedger {
    /// `prove`: an inclusion proof for a record, or a consistency proof between two checkpoints (issue 15).
    struct Prove: Command {
        static let configuration = CommandConfiguration(
            commandName: "prove",
            abstract: "Print a C2SP tlog-proof that a record is in the ledger's log, or a consistency proof.",
            usage: """
                prove LEDGER RECORD [--trust KEY] [--state DIR]
                       prove LEDGER --consistency OLD [--trust KEY] [--state DIR]
                """,
            discussion: """
                RECORD is a record's content address (or a prefix of 8+ hex digits), log:N for write entry N, or a
                path in the ledger. The proof (c2sp.org/tlog-proof@v1) carries the leaf statement
                {"path","sha256"} as its extra line, the leaf index, the inclusion proof and the tip's signed
                checkpoint; 'onym-ledger check-proof' or any tlog client checks it without the ledger.
                --consistency OLD proves the log at OLD (a commit, or a log size) is a prefix of the tip's, in the
                tlog-witness add-checkpoint body form (old <size>, the proof, a blank line, the checkpoint).
                The ledger is verified first.
                """,
            options: AuditOptions.help + [
                OptionHelp(
                    names: "--consistency OLD", help: "A consistency proof from OLD (commit or size) to the tip.")
            ])

        let ledger: String
        let record: String?
        let old: String?
        let audit: AuditOptions

        init(parsing arguments: inout Arguments) throws(CLIError) {
            audit = try AuditOptions(parsing: &arguments)
            old = try arguments.option("--consistency")
            let rest = try arguments.positionals()
            guard rest.count == (old == nil ? 2 : 1) else {
                throw .usage(old == nil ? "prove takes LEDGER and RECORD" : "prove --consistency takes one LEDGER")
            }
            ledger = rest[0]
            record = old == nil ? rest[1] : nil
        }

        func run() throws(CLIError) -> ExitCode {
            let log = try TransparencyOptions.log(of: ledger, audit: audit)
            if let old {
                var size = Int(old)
                if size == nil, let commit = try? Repository.open(ledger).resolveCommit(old) {
                    size = log.checkpoint(commit: commit)?.size
                }
                guard let size, let proof = log.consistencyProof(oldSize: size) else {
                    throw .data("\(old): no checkpoint of this log at that commit or size (the tip has \(log.size))")
                }
                Output.out(proof)
                return .success
            }
            let path = try resolvePath(record!)
            guard let index = log.index(ofPath: path), let proof = log.inclusionProof(index: index) else {
                throw .data("\(path) is not in the ledger's log")
            }
            Output.out(proof)
            return .success
        }

        /// The ledger path `show` would show for `name`.
        private func resolvePath(_ name: String) throws(CLIError) -> String {
            do {
                switch try LedgerBrowser.show(ledger, ref: name) {
                case .file(let path, _): return path
                case .batch: throw CLIError.data("\(name) names a commit; prove takes a record, log:N or a path")
                }
            } catch let error as CLIError {
                throw error
            } catch {
                throw .data("\(error)")
            }
        }
    }
}
