import Foundation
import LedgerFormat

extension OnymLedger {
    /// `textconv`: a readable rendering of one ledger file for git's diff machinery.
    struct Textconv: Command {
        static let configuration = CommandConfiguration(
            commandName: "textconv",
            abstract: "Render one ledger file readably for git diff and git log -p (a textconv filter).",
            usage: "textconv FILE",
            discussion: """
                Prints a record as '#' lines — its kind, content address and times — followed by its fields one per
                line and, after a blank line, what it says: its kind's reading, 'label: value' lines and aligned
                tables (control and bidirectional-formatting characters of ledger text escaped); a checkpoint or cosignature note and the allowed signers with their signers' fingerprints;
                anything else as it is. Always exits 0 for a readable file: git calls it for every version of
                every file it shows. 'onym-ledger git-setup CLONE' configures a clone to use it.
                """,
            options: [])

        let file: String

        init(parsing arguments: inout Arguments) throws(CLIError) {
            let rest = try arguments.positionals()
            guard rest.count == 1 else { throw .usage("textconv takes one FILE") }
            file = rest[0]
        }

        func run() throws(CLIError) -> ExitCode {
            let bytes = try InputFile.read(file)
            FileHandle.standardOutput.write(Data(ReviewRendering.render(bytes).utf8))
            return .success
        }
    }
}
