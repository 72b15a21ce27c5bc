import Foundation
import Testing

@testable import LedgerFormat
import LedgerStore

/// Witnesses: `cosign` cosigns only a checkpoint consistent with the last one it cosigned (two
/// witnesses see a split view as soon as the other branch reaches either), the vendor stores cosignatures
/// with `append`, `verify --witness --quorum --max-age` requires them on the tip's checkpoint and says what is
/// missing, and they travel with `publish` and `prove` into `check-proof`.
@Suite("Transparency: witnesses")
struct WitnessTests {
    struct WitnessParty {
        let key: String
        let name: String
        let state: String
        var vkey = ""

        /// Cosigns `ledger` at `at` (its cosignature's timestamp), returning (status, the cosigned note
        /// file, stderr).
        mutating func cosign(
            _ ledger: String, trust: String, scenario: LedgerScenario, at: String = WitnessTests.cosignedAt
        ) -> (status: Int32, note: String, stderr: String) {
            let out = scenario.scratch.path("\(name)-\(UUID().uuidString).note")
            let result = CLI.run([
                "cosign", ledger, "--key", key, "--name", name, "--trust", trust, "--state", state, "--out", out,
                "--at", at, "--json",
            ])
            if result.status == 0, let object = try? CanonicalJSON.parse(Array(result.stdout.utf8)),
                let key = object["key"]?.stringValue
            {
                vkey = key
            }
            return (result.status, out, result.stderr + result.stdout)
        }
    }

    static func witness(_ name: String, seed: String, _ scenario: LedgerScenario) -> WitnessParty {
        let key = scenario.scratch.path(name + ".key")
        #expect(CLI.run(["keygen", "--out", key, "--seed", String(repeating: seed, count: 32)]).status == 0)
        return WitnessParty(key: key, name: name, state: scenario.scratch.path(name + "-state"))
    }

    /// The scenario's ledger with a mandate, and its trust file.
    static func ledger() -> LedgerScenario {
        let scenario = LedgerScenario()
        scenario.append([scenario.file(scenario.mandate())], at: "2026-08-09T00:00:00Z")
        return scenario
    }

    static func trust(_ scenario: LedgerScenario) -> String { scenario.signer + ".pub" }

    /// When the witnesses cosign (`cosign --at`; never the wall clock, so the tests mean the same on any
    /// day), and when the vendor stores what they return: no earlier than the cosignatures.
    static let cosignedAt = "2026-08-12T00:00:00Z"
    static let storedAt = "2026-08-12T01:00:00Z"

    @Test func twoWitnessesCosignAndVerifyRequiresThem() throws {
        let scenario = Self.ledger()
        var auditor = Self.witness("auditor.example", seed: "21", scenario)
        var ngo = Self.witness("ngo.example", seed: "22", scenario)
        let first = auditor.cosign(scenario.ledger, trust: Self.trust(scenario), scenario: scenario)
        #expect(first.status == 0, "\(first.stderr)")
        let second = ngo.cosign(scenario.ledger, trust: Self.trust(scenario), scenario: scenario)
        #expect(second.status == 0, "\(second.stderr)")
        // A second implementation, written from the specs in Python, accepts the log's signature and the
        // witness's cosignature/v1 line, and refuses the other witness's key for this note.
        let descriptorText = try #require(scenario.show("ledger.json"))
        let logKey = try #require(try CanonicalJSON.parse(Array(descriptorText.utf8))["log"]?.stringValue)
        let checker = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Interop/cosigcheck.py").path
        let independent = runProcess("python3", [checker, first.note, logKey, auditor.vkey])
        #expect(independent.status == 0, "\(independent.stdout) \(independent.stderr)")
        #expect(independent.stdout.contains("ok auditor.example cosignature/v1 "))
        #expect(runProcess("python3", [checker, first.note, ngo.vkey]).status == 1)
        // Before the vendor stores them, verify --witness says exactly what is missing.
        let required = ["--witness", auditor.vkey, "--witness", ngo.vkey, "--trust", Self.trust(scenario)]
        let missing = CLI.run(["verify", scenario.ledger] + required)
        #expect(missing.status == 3)
        #expect(missing.stdout.contains("0 of the 2 witness cosignatures required"))
        #expect(missing.stdout.contains("auditor.example: no cosignature in the ledger"))
        // The history is authentic, only not (yet) witnessed: a place of its own, never an integrity finding.
        #expect(missing.stdout.hasPrefix("VERIFIED, NOT WITNESSED"), "\(missing.stdout)")
        #expect(!missing.stdout.contains("integrity findings"))
        #expect(missing.stdout.contains("witness findings"))
        let missingJSON = CLI.run(["verify", scenario.ledger, "--json"] + required)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(missingJSON.stdout.utf8)) as? [String: Any])
        #expect(report["authentic"] as? Bool == true)
        #expect(report["witnessed"] as? Bool == false)
        #expect(report["verified"] as? Bool == false)
        #expect((report["findings"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["witness"])
        // The vendor stores both; the log does not change, so they cover the tip.
        let stored = CLI.run([
            "append", scenario.ledger, "--signing-key", scenario.signer, "--at", Self.storedAt, first.note,
            second.note, "--json",
        ])
        #expect(stored.status == 0, "\(stored.stdout) \(stored.stderr)")
        #expect(stored.stdout.contains(#""cosignatures":2"#))
        let verified = CLI.run(["verify", scenario.ledger, "--json"] + required)
        #expect(verified.status == 0, "\(verified.stdout)")
        #expect(verified.stdout.contains(#""witnessed":true"#))
        // One witness of two is enough with --quorum 1; a stale cosignature does not count: with --max-age P1D
        // they count until a day after they were made, and not after.
        #expect(CLI.run(["verify", scenario.ledger, "--quorum", "1"] + required).status == 0)
        let fresh = CLI.run(["verify", scenario.ledger, "--max-age", "P1D", "--at", "2026-08-12T23:00:00Z"] + required)
        #expect(fresh.status == 0, "\(fresh.stdout)")
        let stale = CLI.run(["verify", scenario.ledger, "--max-age", "P1D", "--at", "2026-08-13T01:00:00Z"] + required)
        #expect(stale.status == 3)
        #expect(stale.stdout.contains("older than 86400 s"), "\(stale.stdout)")
        // An unknown witness key finds no cosignature.
        var stranger = Self.witness("stranger.example", seed: "23", scenario)
        _ = stranger.cosign(scenario.ledger, trust: Self.trust(scenario), scenario: scenario)
        let unknown = CLI.run(
            ["verify", scenario.ledger, "--witness", stranger.vkey, "--trust", Self.trust(scenario)])
        #expect(unknown.status == 3)
        #expect(unknown.stdout.contains("stranger.example: no cosignature in the ledger"))
        // After a new batch the stored cosignatures cover an older checkpoint: not the tip's.
        scenario.append([scenario.file(scenario.mandate(binding: "enrollment:device-2"))], at: "2026-08-12T02:00:00Z")
        let behind = CLI.run(["verify", scenario.ledger] + required)
        #expect(behind.status == 3)
        #expect(behind.stdout.contains("cosigned an older checkpoint"))
    }

    /// docs/FORMAT.md "Witnesses": a replaced cosignature meets every rule an added one meets. `append` of a
    /// witness's stale cosigned note (an older checkpoint) over its current one is refused, as `verify`
    /// refuses a commit that makes it; the later cosignature replacing the earlier one is stored.
    @Test func appendRefusesAStaleCosignatureOverTheCurrentOne() throws {
        let scenario = Self.ledger()
        let trust = Self.trust(scenario)
        var auditor = Self.witness("auditor.example", seed: "21", scenario)
        let first = auditor.cosign(scenario.ledger, trust: trust, scenario: scenario)
        #expect(first.status == 0, "\(first.stderr)")
        func store(_ note: String, at: String) -> (status: Int32, stdout: String, stderr: String) {
            CLI.run(["append", scenario.ledger, "--signing-key", scenario.signer, "--at", at, note])
        }
        #expect(store(first.note, at: Self.storedAt).status == 0)
        scenario.append(
            [scenario.file(scenario.mandate(binding: "enrollment:device-2"))], at: "2026-08-12T02:00:00Z")
        let second = auditor.cosign(scenario.ledger, trust: trust, scenario: scenario, at: "2026-08-12T03:00:00Z")
        #expect(second.status == 0, "\(second.stderr)")
        let later = store(second.note, at: "2026-08-12T04:00:00Z")
        #expect(later.status == 0, "\(later.stdout) \(later.stderr)")
        let stale = store(first.note, at: "2026-08-12T04:00:00Z")
        #expect(stale.status == 65, "\(stale.stdout) \(stale.stderr)")  // refused, nothing written
        #expect(
            (stale.stdout + stale.stderr).contains("CosignaturePolicy"), "\(stale.stdout) \(stale.stderr)")
        let verified = CLI.run(["verify", scenario.ledger, "--trust", trust, "--witness", auditor.vkey])
        #expect(verified.status == 0, "\(verified.stdout)")
    }

    /// A witness is its key (docs/VERIFY.md, "Witness quorum"): a key given twice, or under two names,
    /// counts once toward a quorum, in `verify --witness` and `check-proof --witness` alike.
    @Test func aQuorumCountsKeysNotNames() throws {
        let scenario = Self.ledger()
        let trust = Self.trust(scenario)
        var auditor = Self.witness("auditor.example", seed: "21", scenario)
        var alias = Self.witness("alias.example", seed: "21", scenario)  // the auditor's key under another name
        var ngo = Self.witness("ngo.example", seed: "22", scenario)
        let cosigned = auditor.cosign(scenario.ledger, trust: trust, scenario: scenario)
        let aliased = alias.cosign(scenario.ledger, trust: trust, scenario: scenario)
        #expect(
            cosigned.status == 0 && aliased.status == 0
                && ngo.cosign(scenario.ledger, trust: trust, scenario: scenario).status == 0)
        // The vendor stores the auditor's cosignature under both names; the NGO's is never stored.
        let stored = CLI.run([
            "append", scenario.ledger, "--signing-key", scenario.signer, "--at", Self.storedAt, cosigned.note,
            aliased.note,
        ])
        #expect(stored.status == 0, "\(stored.stdout) \(stored.stderr)")
        let twice = ["--witness", auditor.vkey, "--witness", auditor.vkey, "--witness", ngo.vkey, "--quorum", "2"]
        let twoNames = ["--witness", auditor.vkey, "--witness", alias.vkey]
        let verifiedTwice = CLI.run(["verify", scenario.ledger, "--trust", trust] + twice)
        #expect(verifiedTwice.status == 3, "\(verifiedTwice.stdout)")
        #expect(verifiedTwice.stdout.contains("1 of the 2 witness cosignatures required"), "\(verifiedTwice.stdout)")
        let verifiedTwoNames = CLI.run(["verify", scenario.ledger, "--trust", trust, "--quorum", "2"] + twoNames)
        #expect(verifiedTwoNames.status == 64, "\(verifiedTwoNames.stdout)")
        #expect(verifiedTwoNames.stderr.contains("a witness is its key"), "\(verifiedTwoNames.stderr)")
        // One witness under two names meets the default quorum: all the witnesses given, here one.
        #expect(CLI.run(["verify", scenario.ledger, "--trust", trust] + twoNames).status == 0)
        // check-proof counts the same way over the cosignatures a proof carries.
        let proved = CLI.run(["prove", scenario.ledger, "ledger.json", "--trust", trust])
        #expect(proved.status == 0, "\(proved.stderr)")
        let proofFile = scenario.scratch.path("descriptor.tlog-proof")
        try proved.stdout.write(toFile: proofFile, atomically: true, encoding: .utf8)
        let descriptor = try #require(scenario.show("ledger.json"))
        let logKey = try #require(try CanonicalJSON.parse(Array(descriptor.utf8))["log"]?.stringValue)
        let checkedTwice = CLI.run(["check-proof", proofFile, "--log-key", logKey] + twice)
        #expect(checkedTwice.status == 1, "\(checkedTwice.stdout)")
        #expect(checkedTwice.stdout.contains("NOT PROVEN: 1 of the 2 witness cosignatures"), "\(checkedTwice.stdout)")
        let checkedTwoNames = CLI.run(["check-proof", proofFile, "--log-key", logKey, "--quorum", "2"] + twoNames)
        #expect(checkedTwoNames.status == 64, "\(checkedTwoNames.stdout)")
        #expect(CLI.run(["check-proof", proofFile, "--log-key", logKey] + twoNames).status == 0)
    }

    @Test func aSplitViewIsSeenTheMomentTheOtherBranchReachesAWitness() throws {
        let scenario = Self.ledger()
        var auditor = Self.witness("auditor.example", seed: "21", scenario)
        // Two branches of the same signed history: the vendor shows each to someone else.
        let branchA = scenario.scratch.path("a.git")
        let branchB = scenario.scratch.path("b.git")
        #expect(runProcess("cp", ["-a", scenario.ledger, branchA]).status == 0)
        #expect(runProcess("cp", ["-a", scenario.ledger, branchB]).status == 0)
        for (branch, binding) in [(branchA, "enrollment:device-a"), (branchB, "enrollment:device-b")] {
            let result = CLI.run([
                "append", branch, "--signing-key", scenario.signer, "--at", "2026-08-10T00:00:00Z",
                scenario.file(scenario.mandate(binding: binding)),
            ])
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(auditor.cosign(branchA, trust: Self.trust(scenario), scenario: scenario).status == 0)
        // Shown the other branch, the witness refuses twice over: its verifier remembers the tip it verified
        // (history rewritten), and its witness state the checkpoint it cosigned (a split view).
        let rewritten = auditor.cosign(branchB, trust: Self.trust(scenario), scenario: scenario)
        #expect(rewritten.status == 1)
        #expect(rewritten.stderr.contains("history was rewritten"))
        // Even with its verifier's memory of the ledger gone, the witness state alone sees the split view.
        try FileManager.default.removeItem(atPath: auditor.state + "/ledgers")
        let split = auditor.cosign(branchB, trust: Self.trust(scenario), scenario: scenario)
        #expect(split.status == 1)
        #expect(split.stderr.contains("split view"), "\(split.stderr)")
        // A damaged witness state is refused in words, never trusted or crashed on.
        let stateFile = try #require(
            FileManager.default.enumerator(atPath: auditor.state + "/witness")?.allObjects.compactMap { $0 as? String }
                .first { $0.hasSuffix(".json") })
        let statePath = auditor.state + "/witness/" + stateFile
        let saved = try Data(contentsOf: URL(fileURLWithPath: statePath))
        try Data(#"{"origin":"x","root":"AAAA","size":-5,"time":0}"#.utf8).write(to: URL(fileURLWithPath: statePath))
        let damaged = auditor.cosign(branchB, trust: Self.trust(scenario), scenario: scenario)
        #expect(damaged.status == 65, "\(damaged.stderr)")
        #expect(damaged.stderr.contains("unreadable witness state"))
        try saved.write(to: URL(fileURLWithPath: statePath))
        // A later checkpoint of the branch it cosigned is consistent: cosigned.
        let later = CLI.run([
            "append", branchA, "--signing-key", scenario.signer, "--at", "2026-08-11T00:00:00Z",
            scenario.file(scenario.mandate(binding: "enrollment:device-c")),
        ])
        #expect(later.status == 0)
        try FileManager.default.removeItem(atPath: auditor.state + "/ledgers")  // it just verified branch B
        let extended = auditor.cosign(branchA, trust: Self.trust(scenario), scenario: scenario)
        #expect(extended.status == 0, "\(extended.stderr)")
    }

    @Test func cosignaturesTravelWithProofs() throws {
        let scenario = Self.ledger()
        var auditor = Self.witness("auditor.example", seed: "21", scenario)
        let cosigned = auditor.cosign(scenario.ledger, trust: Self.trust(scenario), scenario: scenario)
        #expect(cosigned.status == 0)
        #expect(
            CLI.run([
                "append", scenario.ledger, "--signing-key", scenario.signer, "--at", Self.storedAt,
                cosigned.note,
            ]).status == 0)
        let proved = CLI.run(["prove", scenario.ledger, "ledger.json", "--trust", Self.trust(scenario)])
        #expect(proved.status == 0, "\(proved.stderr)")
        let proofFile = scenario.scratch.path("descriptor.tlog-proof")
        try proved.stdout.write(toFile: proofFile, atomically: true, encoding: .utf8)
        let descriptor = try #require(scenario.show("ledger.json"))
        let logKey = try #require(
            try CanonicalJSON.parse(Array(descriptor.utf8))["log"]?.stringValue)
        let checked = CLI.run([
            "check-proof", proofFile, "--log-key", logKey, "--witness", auditor.vkey, "--quorum", "1",
        ])
        #expect(checked.status == 0, "\(checked.stdout)")
        #expect(checked.stdout.contains("cosigned by auditor.example"))
        // The published checkpoint carries the cosignature too.
        let site = scenario.scratch.path("site")
        #expect(CLI.run(["publish", scenario.ledger, site, "--trust", Self.trust(scenario)]).status == 0)
        #expect(try String(contentsOfFile: site + "/checkpoint", encoding: .utf8).contains("\u{2014} auditor.example "))
        // A stock tlog client still reads the cosigned checkpoint: x/mod ignores the signature it does not know.
        try logKey.write(toFile: site + "/vkey", atomically: true, encoding: .utf8)
        let stock = TransparencyTests.runGoChecker(site, scratch: scenario.scratch)
        #expect(stock.status == 0, "\(stock.output)")
    }
}
