import Foundation
import LedgerTestSupport

@testable import LedgerFormat
import LedgerStore

/// A scratch ledger with deterministic parties, driven through the real CLI.
final class LedgerScenario {
    let scratch = ScratchDirectory()
    let authority = FixtureAuthority()
    let interface = FixtureInterface()
    let user = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x05))!
    let signerSeed = String(repeating: "01", count: 32)
    var ledger: String { scratch.path("ledger") }
    var signer: String { scratch.path("signer") }
    private var fileCounter = 0

    init(initialize: Bool = true) {
        let made = CLI.run(["keygen", "--out", signer, "--seed", signerSeed])
        precondition(made.status == 0, made.stderr)
        if initialize {
            let result = CLI.run(initArguments())
            precondition(result.status == 0, result.stderr)
        }
    }

    func initArguments(at: String = "2026-08-01T00:00:00Z") -> [String] {
        [
            "init", ledger, "--interface", interface.componentId, "--signing-key", signer, "--at", at, "--team-id",
            "TEAM123456", "--app", "app.onym.ios", "--app", "app.onym.ios.beta", "--interface-key",
            interface.countersigningKey(for: authority.componentId).publicKey.onymKey,
        ]
    }

    /// Writes `bytes` to a fresh file in the scratch directory and returns its path.
    func file(_ bytes: [UInt8], name: String? = nil) -> String {
        fileCounter += 1
        let path = scratch.path(name ?? "input-\(fileCounter).json")
        try! Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func file(_ object: JSONObject) -> String { file(CanonicalJSON.encode(object)) }

    func mandate(
        binding: String = "enrollment:device-1", user: Ed25519.PrivateKey? = nil,
        classes: [String] = ["csam", "unsolicited-pornography"],
        acceptedAt: String = "2026-08-08T00:00:00Z"
    ) -> JSONObject {
        FixtureRecords.mandate(
            user: user ?? self.user, interface: interface, authority: authority, classes: classes,
            deviceBinding: binding,
            acceptedAt: acceptedAt)
    }

    func writeRequests(
        _ writes: [(at: String, binding: String, by: String, caseOpen: Bool, banned: Bool, outcome: String)]
    ) -> String {
        let lines = writes.map { write in
            String(
                decoding: CanonicalJSON.encode(
                    JSONObject([
                        ("recordedAt", .string(write.at)), ("deviceBinding", .string(write.binding)),
                        ("authorizedBy", .string(write.by)), ("caseOpen", .bool(write.caseOpen)),
                        ("banned", .bool(write.banned)),
                        ("outcome", .string(write.outcome)),
                    ])), as: UTF8.self)
        }
        return file(Array((lines.joined(separator: "\n") + "\n").utf8), name: "writes-\(fileCounter + 1).ndjson")
    }

    @discardableResult
    func append(_ files: [String], at: String, expect status: Int32 = 0) -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let result = CLI.run(["append", ledger, "--signing-key", signer, "--at", at] + files)
        precondition(
            result.status == status,
            "append exited \(result.status), expected \(status): \(result.stdout) \(result.stderr)")
        return result
    }

    /// The branch tip, via stock git.
    var tip: String {
        runProcess("git", ["--git-dir", ledger, "rev-parse", "refs/heads/main"]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// Every commit, oldest first, via stock git.
    var commits: [String] {
        runProcess("git", ["--git-dir", ledger, "rev-list", "--reverse", "refs/heads/main"]).stdout.split(
            separator: "\n"
        ).map(String.init)
    }

    /// A file of the tip's tree, via stock git.
    /// Where the tip stores a record of `kind` under `address` (format version 2 names records by the batch
    /// that published them), or a path no tree holds when it stores none.
    func recordPath(_ kind: any StoredRecord.Type, _ address: ContentAddress) -> String {
        let repository = try! Repository.open(ledger)
        let tip = try! repository.referenceTarget(LedgerLayout.branch)!
        guard let batch = try! repository.recordIndex(inCommit: tip).batch(of: kind, address) else {
            return "not-in-the-ledger/\(kind.folder)/\(address.hex)"
        }
        return LedgerLayout.recordPath(kind, address, batch: batch)
    }

    /// Where the tip stores the detached signature of manifest `hash`.
    func manifestSignaturePath(_ hash: ContentAddress) -> String {
        let repository = try! Repository.open(ledger)
        let tip = try! repository.referenceTarget(LedgerLayout.branch)!
        guard let batch = try! repository.recordIndex(inCommit: tip).batch(of: .init(manifestSignature: hash)) else {
            return "not-in-the-ledger/\(hash.hex).sig"
        }
        return LedgerLayout.manifestSignaturePath(hash, batch: batch)
    }

    func show(_ path: String) -> String? {
        let result = runProcess("git", ["--git-dir", ledger, "show", "refs/heads/main:\(path)"])
        return result.status == 0 ? result.stdout : nil
    }

    func allowedSignersFile(keys: [String]? = nil) -> String {
        let publicLine = try! String(contentsOfFile: signer + ".pub", encoding: .utf8).trimmingCharacters(in: .newlines)
        let lines = (keys ?? [publicLine]).map { "onym-ledger namespaces=\"git\" \($0)" }
        return file(Array((lines.joined(separator: "\n") + "\n").utf8), name: "allowed-\(fileCounter + 1)")
    }
}
