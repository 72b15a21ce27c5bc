import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore

/// Keys the way git users keep them — `--signing-key` takes a public key whose private half a
/// real `ssh-agent` holds, and a passphrase-protected key file signs through the agent too.
@Suite("Signing through a real ssh-agent", .serialized)
struct SSHAgentTests {
    /// A running agent (in the foreground, `-D`) on a socket in `scratch`, stopped when the test ends.
    final class Agent {
        let socket: String
        let process = Process()

        init(in scratch: borrowing ScratchDirectory) throws {
            socket = scratch.path("agent.sock")
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-agent")
            process.arguments = ["-D", "-a", socket]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
            guard FileManager.default.fileExists(atPath: socket) else {
                throw FixtureError(description: "ssh-agent did not start")
            }
        }

        var environment: [String: String] { ["SSH_AUTH_SOCK": socket] }

        // SIGKILL, not terminate()'s SIGTERM: the agent inherits the test thread's signal mask, in which
        // SIGTERM is blocked, and ssh-agent waits in ppoll with the mask it inherited — it would never exit.
        deinit {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    @Test func commitsAreSignedByTheAgentFromAPublicKeyOrAnEncryptedKeyFile() throws {
        let scratch = ScratchDirectory()
        let agent = try Agent(in: scratch)
        // A passphrase-protected key, as ssh-keygen makes it; the agent holds it (ssh-add reads a copy
        // without the passphrase, since it cannot be typed here).
        let key = scratch.path("vendor")
        #expect(
            runProcess("ssh-keygen", ["-q", "-t", "ed25519", "-N", "secret", "-C", "vendor", "-f", key]).status == 0)
        let plain = scratch.path("vendor-plain")
        #expect(runProcess("cp", [key, plain]).status == 0)
        #expect(runProcess("ssh-keygen", ["-q", "-p", "-P", "secret", "-N", "", "-f", plain]).status == 0)
        #expect(runProcess("ssh-add", ["-q", plain], environment: agent.environment).status == 0)

        let ledger = scratch.path("ledger.git")
        let authority = FixtureAuthority()
        let initialized = CLI.run(
            [
                "init", ledger, "--interface", "onym:component:agent-test", "--signing-key", key + ".pub",
                "--no-mandates", "--at", "2026-08-01T00:00:00Z",
            ], environment: agent.environment)
        #expect(initialized.status == 0, "\(initialized.stderr)")
        let manifest = scratch.path("manifest.json")
        try Data(authority.manifestBytes).write(to: URL(fileURLWithPath: manifest))
        // The encrypted key file itself: signed through the agent with the .pub beside it.
        let appended = CLI.run(
            ["append", ledger, "--signing-key", key, "--at", "2026-08-02T00:00:00Z", manifest],
            environment: agent.environment)
        #expect(appended.status == 0, "\(appended.stderr)")
        let verified = CLI.run(["verify", ledger, "--trust", key + ".pub", "--at", "2026-09-01T00:00:00Z"])
        #expect(verified.status == 0, "\(verified.stdout)")
        #expect(verified.stdout.contains("commits:      2"))
        // Ed25519 is deterministic and commits are reproducible: the agent's ledger is byte for byte the
        // one the same key signs in process.
        let direct = scratch.path("direct.git")
        CLI.run([
            "init", direct, "--interface", "onym:component:agent-test", "--signing-key", plain, "--no-mandates",
            "--at", "2026-08-01T00:00:00Z",
        ])
        CLI.run(["append", direct, "--signing-key", plain, "--at", "2026-08-02T00:00:00Z", manifest])
        let agentTip = runProcess("git", ["--git-dir", ledger, "rev-parse", "refs/heads/main"]).stdout
        let directTip = runProcess("git", ["--git-dir", direct, "rev-parse", "refs/heads/main"]).stdout
        #expect(!agentTip.isEmpty && agentTip == directTip)

        // An agent without the key, and no agent at all: clear refusals, nothing written.
        #expect(runProcess("ssh-add", ["-D"], environment: agent.environment).status == 0)
        let refused = CLI.run(
            ["append", ledger, "--signing-key", key + ".pub", "--at", "2026-08-03T00:00:00Z", manifest + ".x"],
            environment: agent.environment)
        #expect(refused.status != 0)
        let other = scratch.path("other.json")
        try Data(FixtureAuthority(componentId: "onym:component:b", seed: FixtureSeed.repeated(0x08)).manifestBytes)
            .write(to: URL(fileURLWithPath: other))
        let notHeld = CLI.run(
            ["append", ledger, "--signing-key", key + ".pub", "--at", "2026-08-03T00:00:00Z", other],
            environment: agent.environment)
        #expect(notHeld.status == 65)
        #expect(notHeld.stderr.contains("did not sign"), "\(notHeld.stderr)")
        let noAgent = CLI.run(
            ["append", ledger, "--signing-key", key + ".pub", "--at", "2026-08-03T00:00:00Z", other],
            environment: ["SSH_AUTH_SOCK": ""])
        #expect(noAgent.status == 64)
        #expect(noAgent.stderr.contains("SSH_AUTH_SOCK is not set"))
    }
}
