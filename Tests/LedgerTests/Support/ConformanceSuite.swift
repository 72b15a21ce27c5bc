import Foundation
import LedgerTestSupport

@testable import LedgerFormat
import LedgerStore
@testable import LedgerWriter

/// The conformance suite under `conformance/`: the good ledger and one ledger per attack class
/// of the tamper corpus — a policy, and whether its finding is about integrity or conduct — with a
/// manifest of the outcome `verify` must give. Data for a second implementation to test itself against;
/// this is its generator (`make conformance`), and `ConformanceSuiteTests` checks that the checked-in
/// suite is what it generates and that `verify` gives every outcome the manifest states.
enum ConformanceSuite {
    /// The verification time every case is judged at.
    static let at = "2026-09-01T00:00:00Z"

    /// Files in a ledger's git directory that are a writer's or an auditor's local state, not the ledger.
    static let localState = [
        "onym-ledger-writer-state.json", "onym-ledger-writer-replay.state", "onym-ledger-writer-index",
        "onym-ledger-writer-bindings.table", "onym-ledger-writer-bindings.table.delta",
        "onym-ledger-writer-records.table", "onym-ledger-writer-records.table.delta", "onym-ledger-writer.lock",
        "onym-ledger-repacked-bytes", "onym-ledger",
    ]

    /// Builds the suite in `root` (`ledgers/<case>.git`, `trust.pub`, `manifest.json`) and returns the
    /// manifest.
    @discardableResult
    static func generate(into root: String) throws -> JSONObject {
        let files = FileManager.default
        let ledgers = root + "/ledgers"
        try? files.removeItem(atPath: ledgers)
        try files.createDirectory(atPath: ledgers, withIntermediateDirectories: true)
        try (OpenSSHKey.publicKeyLine(FixtureLedger.signer1.publicKey) + "\n").write(
            toFile: root + "/trust.pub", atomically: true, encoding: .utf8)

        let good = ledgers + "/good.git"
        try FixtureLedger.build(at: good)
        strip(good)
        compact(good)
        var cases: [JSONValue] = [
            .object(
                try entry(
                    name: "good", ledger: good, root: root, attack: "none: the ledger FixtureLedger builds",
                    exit: 0, authentic: true, policy: nil, kind: nil))
        ]
        var classes: Set<String> = []
        for attack in TamperCorpus.attacks where !attack.afterCheckpoint {
            let name = attack.conformance ?? attack.policy + (attack.conduct ? "-conduct" : "")
            guard classes.insert(name).inserted else { continue }
            let path = "\(ledgers)/\(name).git"
            let copied = runProcess("cp", ["-a", good, path])
            precondition(copied.status == 0, copied.stderr)
            let surgeon = try Surgeon(
                path: path, keys: [FixtureLedger.signer1, FixtureLedger.signer2, TamperCorpus.stranger])
            attack.mutate(surgeon)
            strip(path)
            // One pack of what the branch reaches keeps the suite small; a repository-level attack (grafts,
            // replace refs, alternates) changes what stock git reaches, so those stay as the attack left them.
            if attack.policy != "RepositoryPolicy" { compact(path) }
            cases.append(
                .object(
                    try entry(
                        name: name, ledger: path, root: root, attack: attack.name,
                        exit: attack.accepted ? 0 : attack.conduct ? 2 : 1,
                        authentic: attack.accepted || attack.conduct,
                        policy: attack.accepted ? nil : attack.policy,
                        kind: attack.accepted ? nil : attack.conduct ? "conduct" : "integrity")))
        }
        let manifest = JSONObject([
            ("formatVersion", .integer(LedgerDescriptor.formatVersion)),
            ("trust", .string("trust.pub")),
            ("at", .string(at)),
            ("cases", .array(cases)),
        ])
        try Data(PrettyJSON.render(.object(manifest))).write(to: URL(fileURLWithPath: root + "/manifest.json"))
        return manifest
    }

    private static func entry(
        name: String, ledger: String, root: String, attack: String, exit: Int64, authentic: Bool, policy: String?,
        kind: String?
    ) throws -> JSONObject {
        let repository = try Repository.open(ledger)
        let tip = try repository.referenceTarget(LedgerLayout.branch)
        var expect = JSONObject([("exit", .integer(exit)), ("authentic", .bool(authentic))])
        if let policy { expect.set("policy", .string(policy)) }
        if let kind { expect.set("kind", .string(kind)) }
        return JSONObject([
            ("name", .string(name)),
            ("ledger", .string(String(ledger.dropFirst(root.count + 1)))),
            ("tip", tip.map { .string($0.hex) } ?? .null),
            ("attack", .string(attack)),
            ("expect", .object(expect)),
        ])
    }

    /// Stock git packs the objects the branch reaches into one pack and drops the rest.
    private static func compact(_ ledger: String) {
        for arguments in [["repack", "-a", "-d", "-q"], ["prune", "--expire=now"]] {
            let result = runProcess("git", ["--git-dir", ledger] + arguments)
            precondition(result.status == 0, "\(ledger): git \(arguments.joined(separator: " ")): \(result.stderr)")
        }
    }

    private static func strip(_ ledger: String) {
        for name in localState { try? FileManager.default.removeItem(atPath: ledger + "/" + name) }
    }
}
