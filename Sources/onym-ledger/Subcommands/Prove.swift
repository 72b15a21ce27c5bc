import Foundation
import LedgerFormat
import LedgerStore
import LedgerVerifier

extension OnymLedger {
    /// `prove`: an inclusion proof for a record, or a consistency proof between two checkpoints.
    struct Prove: Command {
        static let configuration = CommandConfiguration(
            commandName: "prove",
            abstract: "Print a C2SP tlog-proof that a record is in the ledger's log, or a consistency proof.",
            usage: """
                prove LEDGER RECORD [--trust KEY] [--state DIR]
                       prove LEDGER --consistency OLD [NEW] [--trust KEY] [--state DIR]
                """,
            discussion: """
                RECORD names one file of the ledger, as 'show' takes it:
                \(LedgerReferenceHelp.text)
                The proof (c2sp.org/tlog-proof@v1) carries the leaf statement
                {"path","sha256"} as its extra line, the leaf index, the inclusion proof and the tip's signed
                checkpoint; 'onym-ledger check-proof' or any tlog client checks it without the ledger.
                --consistency OLD [NEW] proves the log at OLD (a commit, or a log size) is a prefix of the log at NEW
                (a commit or size with a checkpoint; default: the tip), in the tlog-witness add-checkpoint body form
                (old <size>, the proof, a blank line, NEW's checkpoint).
                The ledger is verified first.
                """,
            options: AuditOptions.help + [
                OptionHelp(
                    names: "--consistency OLD", help: "A consistency proof from OLD (commit or size) to the tip.")
            ])

        let ledger: String
        let record: String?
        let old: String?
        let new: String?
        let audit: AuditOptions

        init(parsing arguments: inout Arguments) throws(CLIError) {
            audit = try AuditOptions(parsing: &arguments)
            old = try arguments.option("--consistency")
            let rest = try arguments.positionals()
            guard old == nil ? rest.count == 2 : (rest.count == 1 || rest.count == 2) else {
                throw .usage(
                    old == nil ? "prove takes LEDGER and RECORD" : "prove --consistency OLD takes LEDGER [NEW]")
            }
            ledger = rest[0]
            record = old == nil ? rest[1] : nil
            new = old != nil && rest.count == 2 ? rest[1] : nil
        }

        func run() throws(CLIError) -> ExitCode {
            let log = try TransparencyOptions.log(of: ledger, audit: audit)
            if let old {
                func size(_ name: String) -> Int? {
                    if let size = Int(name) { return size }
                    guard let commit = try? Repository.open(ledger).resolveCommit(name) else { return nil }
                    return log.checkpoint(commit: commit)?.size
                }
                let newSize = try new.map { (name: String) throws(CLIError) -> Int in
                    guard let value = size(name) else {
                        throw .data("\(name): no checkpoint of this log at that commit")
                    }
                    return value
                }
                let newCommit = new.flatMap { Int($0) == nil ? try? Repository.open(ledger).resolveCommit($0) : nil }
                guard let oldSize = size(old),
                    let proof = log.consistencyProof(oldSize: oldSize, newSize: newSize, newCommit: newCommit)
                else {
                    throw .data(
                        "\(old)\(new.map { " → \($0)" } ?? ""): no consistency proof (old must not exceed new; new must be "
                            + "a checkpoint's size; the tip has \(log.size))")
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
            } catch let error as LedgerBrowser.BrowseError {
                throw CLIError(error)
            } catch {
                throw .data("\(error)")
            }
        }
    }
}
