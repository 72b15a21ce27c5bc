import Foundation
import Testing

@testable import LedgerFormat

/// docs/FORMAT.md "Allowed signers": the grammar `keys/allowed_signers` is read in, checked line by line
/// against the real `ssh-keygen -Y verify` (what `git verify-commit` runs): every file the ledger accepts,
/// ssh-keygen accepts too, so stock git trusts exactly the keys the verifier trusts or fewer — never more.
@Suite("Allowed signers: the grammar, against ssh-keygen")
struct AllowedSignersGrammarTests {
    /// Lines the grammar accepts (`KEY` stands for `ssh-ed25519 <base64>`).
    static let accepted = [
        #"onym-ledger namespaces="git" KEY"#,
        #"onym-ledger namespaces="git" KEY a comment, with spaces"#,
        #"onym-ledger namespaces="file,git" KEY"#,
        #"onym-ledger namespaces="git,file" KEY"#,
        "onym-ledger KEY",
        "onym-ledger KEY comment",
        "onym-ledger\tnamespaces=\"git\"\tKEY\tcomment",
        #"  onym-ledger   namespaces="git"   KEY   "#,
        #""onym-ledger" namespaces="git" KEY"#,
        #"onym-ledger,auditor@example.org namespaces="git" KEY"#,
        "# a comment line\n\n   \nonym-ledger namespaces=\"git\" KEY",
        "onym-ledger namespaces=\"git\" KEY\n# trailing comment",
        // ssh-keygen reads bytes: a combining mark after a separator or `#` does not join them (Swift's
        // characters would: " \u{301}" and "#\u{301}" are one character each).
        "onym-ledger namespaces=\"git\" KEY \u{301}a comment that starts with a combining mark",
        "#\u{301} a comment line that starts with a combining mark\nonym-ledger namespaces=\"git\" KEY",
        "onym-ledger,\u{301}auditor@example.org namespaces=\"git\" KEY",
    ]

    /// Lines the grammar refuses, and whether ssh-keygen reads them (true: a narrower rule of the ledger's,
    /// docs/FORMAT.md gives the reason).
    static let refused: [(line: String, sshAccepts: Bool)] = [
        ("onym-ledger namespaces=git KEY", false),  // unquoted
        (#"onym-ledger namespaces="file" KEY"#, false),  // excludes git
        (#"onym-ledger namespaces="" KEY"#, false),
        (#"onym-ledger namespaces="git",cert-authority KEY"#, false),
        (#"onym-ledger namespaces="git" namespaces="git" KEY"#, false),
        ("onym-ledger namespaces=\"git\" KEY#glued", false),
        (#"onym-ledger namespaces="git",valid-after="20200101" KEY"#, true),  // dates never decide validity
        (#"onym-ledger namespaces="*" KEY"#, true),  // names git only by a pattern
        (#"onym-ledger namespaces="git," KEY"#, true),  // an empty name
        (#"onym-ledger NAMESPACES="git" KEY"#, true),  // the option's name is lowercase
        ("onym-ledger namespaces=\"git\" KEY\r", true),  // CR: lines end in LF alone
        ("# a comment\r\nonym-ledger namespaces=\"git\" KEY", true),  // CR LF is refused, not one line ending
        ("onym-ledger\u{0} namespaces=\"git\" KEY", false),  // NUL: ssh-keygen refuses the line
        ("onym-ledger ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC", false),
    ]

    struct Signer {
        let key: Ed25519.PublicKey
        let keyField: String
        let message: String
        let signature: String
    }

    /// A key made and a message signed (namespace git) by the real ssh-keygen.
    static func signer(_ scratch: borrowing ScratchDirectory) throws -> Signer {
        let keyPath = scratch.path("id")
        let made = runProcess("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "", "-f", keyPath])
        try #require(made.status == 0, "ssh-keygen: \(made.stderr)")
        let message = scratch.path("message")
        try "a commit\n".write(toFile: message, atomically: true, encoding: .utf8)
        let signed = runProcess("ssh-keygen", ["-q", "-Y", "sign", "-f", keyPath, "-n", "git", message])
        try #require(signed.status == 0, "ssh-keygen -Y sign: \(signed.stderr)")
        let publicLine = try String(contentsOfFile: keyPath + ".pub", encoding: .utf8)
        let keyField = publicLine.split(separator: " ").prefix(2).joined(separator: " ")
        return Signer(
            key: try OpenSSHKey.parsePublicKey(keyField), keyField: keyField, message: message,
            signature: message + ".sig")
    }

    /// Whether `ssh-keygen -Y verify` accepts the signer's git signature with `file` as allowed signers.
    static func sshAccepts(_ file: String, _ signer: Signer, _ scratch: borrowing ScratchDirectory) throws -> Bool {
        let path = scratch.path("allowed_signers-\(UUID().uuidString)")
        try file.write(toFile: path, atomically: true, encoding: .utf8)
        let result = runProcess(
            "ssh-keygen", ["-Y", "verify", "-f", path, "-I", "onym-ledger", "-n", "git", "-s", signer.signature],
            stdin: try Data(contentsOf: URL(fileURLWithPath: signer.message)))
        return result.status == 0
    }

    @Test func everyFileTheGrammarAcceptsSshKeygenAcceptsAndTheRefusalsAreTheDocumentedOnes() throws {
        let scratch = ScratchDirectory()
        let signer = try Self.signer(scratch)
        for line in Self.accepted {
            let file = line.replacingOccurrences(of: "KEY", with: signer.keyField) + "\n"
            let parsed = try? AllowedSigners(text: file)
            #expect(parsed?.keys == [signer.key], "refused: \(line)")
            #expect(try Self.sshAccepts(file, signer, scratch), "ssh-keygen refuses what the grammar accepts: \(line)")
        }
        for (line, sshAccepts) in Self.refused {
            let file = line.replacingOccurrences(of: "KEY", with: signer.keyField) + "\n"
            #expect((try? AllowedSigners(text: file)) == nil, "accepted: \(line)")
            #expect(try Self.sshAccepts(file, signer, scratch) == sshAccepts, "ssh-keygen's reading of \(line)")
        }
        // No final newline is needed, as ssh-keygen reads it.
        #expect(try AllowedSigners(text: "onym-ledger \(signer.keyField)").keys == [signer.key])
    }

    /// The writer writes one form whatever form it read: each key once, no comments, LF-terminated lines.
    @Test func theWriterWritesOneCanonicalForm() throws {
        let scratch = ScratchDirectory()
        let signer = try Self.signer(scratch)
        let read = try AllowedSigners(
            text: "# keys\n\"onym-ledger\"\tnamespaces=\"file,git\" \(signer.keyField) laptop\n"
                + "onym-ledger \(signer.keyField)\n")
        #expect(read.text == "onym-ledger namespaces=\"git\" \(signer.keyField)\n")
        #expect(try AllowedSigners(text: read.text).text == read.text)
    }
}
