import Foundation
import LedgerFormat
import LedgerStore

extension OnymLedger {
    /// `git-setup`: configures a clone of a ledger for reading with stock git.
    struct GitSetup: Command {
        static let configuration = CommandConfiguration(
            commandName: "git-setup",
            abstract:
                "Configure a clone so git log -p reads as a story and git log --show-signature marks commits good.",
            usage: "git-setup CLONE",
            discussion: """
                Writes, in CLONE's git directory: info/attributes routing ledger files through 'onym-ledger
                textconv' (diff=onym-ledger), the config diff.onym-ledger.textconv, and onym-ledger-allowed-signers —
                every key any commit's keys/allowed_signers ever allowed — as gpg.ssh.allowedSignersFile, so
                'git log --show-signature' checks every commit, old keys included. Changes nothing tracked.
                Stock git checks each signature against that union; 'onym-ledger verify' checks which key was
                allowed when.
                """,
            options: [])

        let clone: String

        init(parsing arguments: inout Arguments) throws(CLIError) {
            let rest = try arguments.positionals()
            guard rest.count == 1 else { throw .usage("git-setup takes one CLONE") }
            clone = rest[0]
        }

        static let attributes = """
            # onym-ledger: readable diffs of ledger files (onym-ledger git-setup)
            *.json diff=onym-ledger
            checkpoint diff=onym-ledger
            cosignatures/* diff=onym-ledger
            keys/allowed_signers diff=onym-ledger

            """

        /// The absolute path of the running executable, for the clone's textconv. `argv[0]` is what the user
        /// typed — a bare `onym-ledger` when `PATH` found it — and a relative path would name the folder
        /// `git-setup` ran in, where git later finds nothing. Linux names the executable in `/proc/self/exe`.
        static var runningBinary: String {
            if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
                executable.hasPrefix("/")
            {
                return executable
            }
            return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        }

        func run() throws(CLIError) -> ExitCode {
            let found: (gitDirectory: String, keys: [Ed25519.PublicKey])
            do {
                found = try LedgerKeys.everySigner(clone)
            } catch {
                throw .data("\(clone): \(error)")
            }
            let keys = found.keys
            let gitDirectory = found.gitDirectory.hasSuffix("/") ? found.gitDirectory : found.gitDirectory + "/"
            let signersPath = gitDirectory + "onym-ledger-allowed-signers"
            let binary = Self.runningBinary
            do {
                try DurableFile.makeFolders(gitDirectory + "info")
                try DurableFile.write(Array(Self.attributes.utf8), to: gitDirectory + "info/attributes")
                try DurableFile.write(Array(AllowedSigners(keys: keys).text.utf8), to: signersPath)
            } catch {
                throw .data("\(error)")
            }
            for (key, value) in [
                ("diff.onym-ledger.textconv", "'\(binary)' textconv"), ("diff.onym-ledger.cachetextconv", "true"),
                ("gpg.format", "ssh"), ("gpg.ssh.allowedSignersFile", signersPath),
            ] {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["git", "--git-dir", found.gitDirectory, "config", key, value]
                do {
                    try process.run()
                    process.waitUntilExit()
                } catch {
                    throw .data("git config \(key): \(error.localizedDescription)")
                }
                guard process.terminationStatus == 0 else { throw .data("git config \(key) failed") }
            }
            Output.out(
                "configured \(clone): readable diffs through \(binary) textconv; \(keys.count) signing keys in \(signersPath)"
            )
            return .success
        }
    }
}
