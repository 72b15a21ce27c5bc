import Foundation
import Testing

@testable import LedgerFormat
import LedgerStore

@Suite("OpenSSH keys and SSHSIG, against the real ssh-keygen")
struct OpenSSHKeyTests {
    @Test func loadsAKeyMadeByRealSSHKeygen() throws {
        let scratch = ScratchDirectory()
        let keyPath = scratch.path("id_ed25519")
        let made = runProcess("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "test@onym", "-f", keyPath])
        try #require(made.status == 0, "ssh-keygen failed: \(made.stderr)")
        let key = try OpenSSHKey.parsePrivateKey(try String(contentsOfFile: keyPath, encoding: .utf8))
        let publicLine = try String(contentsOfFile: keyPath + ".pub", encoding: .utf8)
        #expect(try OpenSSHKey.parsePublicKey(publicLine) == key.publicKey)
        #expect(OpenSSHKey.publicKeyLine(key.publicKey, comment: "test@onym") + "\n" == publicLine)
        let fingerprint = runProcess("ssh-keygen", ["-l", "-f", keyPath + ".pub"]).stdout
        #expect(fingerprint.contains(OpenSSHKey.fingerprint(key.publicKey)))
    }

    @Test func writesAKeyRealSSHKeygenReads() throws {
        let scratch = ScratchDirectory()
        let key = Ed25519.PrivateKey(seed: [UInt8](repeating: 0x2a, count: 32))!
        let keyPath = scratch.path("key")
        try OpenSSHKey.privateKeyFile(key, comment: "ledger").write(toFile: keyPath, atomically: true, encoding: .utf8)
        chmod(keyPath, 0o600)
        let derived = runProcess("ssh-keygen", ["-y", "-f", keyPath])
        try #require(derived.status == 0, "ssh-keygen -y failed: \(derived.stderr)")
        #expect(try OpenSSHKey.parsePublicKey(derived.stdout) == key.publicKey)
        // Deterministic: the same seed writes the same file.
        #expect(
            OpenSSHKey.privateKeyFile(key, comment: "ledger") == (try String(contentsOfFile: keyPath, encoding: .utf8)))
    }

    @Test func rejectsEncryptedAndMalformedKeys() throws {
        let scratch = ScratchDirectory()
        let keyPath = scratch.path("enc")
        let made = runProcess("ssh-keygen", ["-q", "-t", "ed25519", "-N", "secret-pass", "-f", keyPath])
        try #require(made.status == 0)
        #expect(throws: LedgerFormatError(.invalidSSHKey, "")) {
            try OpenSSHKey.parsePrivateKey(try String(contentsOfFile: keyPath, encoding: .utf8))
        }
        #expect(throws: LedgerFormatError(.invalidSSHKey, "")) { try OpenSSHKey.parsePrivateKey("not a key") }
        #expect(throws: LedgerFormatError(.invalidSSHKey, "")) { try OpenSSHKey.parsePublicKey("ssh-rsa AAAAB3Nza") }
    }

    @Test func ourSSHSIGVerifiesWithSSHKeygenAndViceVersa() throws {
        let scratch = ScratchDirectory()
        let key = Ed25519.PrivateKey(seed: [UInt8](repeating: 0x11, count: 32))!
        let message = Array("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n\nmessage\n".utf8)
        let signature = SSHSignature.sign(message, namespace: "git", with: key)
        try Data(message).write(to: URL(fileURLWithPath: scratch.path("msg")))
        try (signature.armored + "\n").write(toFile: scratch.path("msg.sig"), atomically: true, encoding: .utf8)
        try "signer@onym \(OpenSSHKey.publicKeyLine(key.publicKey))\n"
            .write(toFile: scratch.path("allowed"), atomically: true, encoding: .utf8)
        let verified = runProcess(
            "ssh-keygen",
            [
                "-Y", "verify", "-f", scratch.path("allowed"), "-I", "signer@onym", "-n", "git", "-s",
                scratch.path("msg.sig"),
            ], stdin: Data(message))
        #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
        #expect(signature.isValid(for: message, namespace: "git"))
        #expect(!signature.isValid(for: message, namespace: "file"))
        #expect(!signature.isValid(for: message + [0x0a], namespace: "git"))
        #expect(try SSHSignature.parse(armored: signature.armored) == signature)

        // ssh-keygen -Y sign with a key we wrote; our verifier accepts it.
        let keyPath = scratch.path("signing")
        try OpenSSHKey.privateKeyFile(key).write(toFile: keyPath, atomically: true, encoding: .utf8)
        chmod(keyPath, 0o600)
        let signed = runProcess("ssh-keygen", ["-Y", "sign", "-f", keyPath, "-n", "git", scratch.path("msg")])
        try #require(signed.status == 0, "\(signed.stderr)")
        let theirs = try SSHSignature.parse(
            armored: try String(contentsOfFile: scratch.path("msg.sig"), encoding: .utf8))
        #expect(theirs.publicKey == key.publicKey)
        #expect(theirs.isValid(for: message, namespace: "git"))
    }
}
