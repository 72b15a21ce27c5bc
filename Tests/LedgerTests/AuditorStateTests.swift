import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier
@testable import LedgerWriter

/// Trust kept outside the ledger, evidence never erased, authenticity apart from conduct (docs/VERIFY.md,
/// "The auditor's state"). Every case is a way an auditor could be misled, run through the real binary.
@Suite("CLI: the auditor's state, rewrites, and conduct findings")
struct AuditorStateTests {
    static let at = ["--at", "2026-09-01T00:00:00Z"]

    func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    func verify(_ ledger: String, _ extra: [String]) -> (status: Int32, stdout: String, stderr: String) {
        CLI.run(["verify", ledger] + Self.at + extra)
    }

    /// A tampered copy (one verdict deleted by an unsigned commit) with a checkpoint planted in its git
    /// directory — where earlier versions kept it — naming the tampered tip.
    static func tamperedWithPlantedCheckpoint(_ scratch: borrowing ScratchDirectory) throws -> String {
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let surgeon = try Surgeon(path: ledger, keys: [FixtureLedger.signer1, FixtureLedger.signer2])
        surgeon.append([.remove(path: TamperCorpus.verdictPath(0))], signing: Surgeon.Signing.none)
        let planted = Checkpoint(
            tip: surgeon.tip, trust: [OpenSSHKey.fingerprint(FixtureLedger.signer1.publicKey)], commits: 9, logSize: 6,
            logHead: "planted", recordsByKind: [:], signaturesChecked: 0,
            firstCommitTime: nil, profilePlatform: nil)
        try FileManager.default.createDirectory(atPath: ledger + "/onym-ledger", withIntermediateDirectories: true)
        try Data(CanonicalJSON.encode(planted.json)).write(
            to: URL(fileURLWithPath: ledger + "/onym-ledger/verified.json"))
        return ledger
    }

    @Test func aPlantedCheckpointIsNeverTrusted() throws {
        let scratch = ScratchDirectory()
        let ledger = try Self.tamperedWithPlantedCheckpoint(scratch)
        let withTrust = verify(ledger, ["--trust", TamperCorpusTests.trust, "--json"])
        #expect(withTrust.status == 1)
        // Exactly what a clean copy of the same objects gives with --full.
        let clean = scratch.path("clean.git")
        #expect(runProcess("git", ["clone", "--quiet", "--bare", ledger, clean]).status == 0)
        let cleanRun = verify(clean, ["--trust", TamperCorpusTests.trust, "--full", "--json"])
        #expect(cleanRun.status == 1)
        func policies(_ text: String) -> [String] {
            ((json(text)["findings"] as? [[String: Any]]) ?? []).compactMap { $0["policy"] as? String }.sorted()
        }
        #expect(policies(withTrust.stdout) == policies(cleanRun.stdout))
        #expect(!policies(withTrust.stdout).isEmpty)
        // Without --trust the planted file does not stand in for one.
        let withoutTrust = verify(ledger, [])
        #expect(withoutTrust.status == 64)
        #expect(withoutTrust.stderr.contains("no root of trust"))
    }

    @Test func theStateLivesInTheAuditorsFolderKeyedByTheLedgersIdentity() throws {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let home = scratch.path("xdg")
        let first = CLI.run(
            ["verify", ledger, "--trust", TamperCorpusTests.trust] + Self.at, environment: ["XDG_STATE_HOME": home])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let root = try Repository.open(ledger).history(
            from: try Repository.open(ledger).referenceTarget("refs/heads/main")!)[0]
        let folder = "\(home)/onym-ledger/ledgers/fixture-ledger/\(root.hex)"
        #expect(FileManager.default.fileExists(atPath: folder + "/state.json"))
        #expect(FileManager.default.fileExists(atPath: folder + "/replay.state"))
        #expect(FileManager.default.fileExists(atPath: folder + "/journal.jsonl"))
        #expect(!FileManager.default.fileExists(atPath: ledger + "/onym-ledger"))
        #expect(first.stdout.contains("state:        \(folder)"))
        // The journal keeps the verified tip's signed commit object, byte for byte.
        let state = AuditorState(root: home + "/onym-ledger", ledgerId: "fixture-ledger", firstCommit: root)
        let verified = try #require(state.journalEvents().first { $0["event"]?.stringValue == "verified" })
        let tip = try #require(ObjectID(hexString: verified["tip"]!.stringValue!))
        let stored = try Repository.open(ledger).rawCommit(tip)
        #expect(Base64.decode(verified["commit"]!.stringValue!) == stored)
        // A second run remembers the trust: no --trust needed, nothing new checked.
        let second = CLI.run(["verify", ledger, "--json"] + Self.at, environment: ["XDG_STATE_HOME": home])
        #expect(second.status == 0)
        #expect((json(second.stdout)["summary"] as? [String: Any])?["commitsChecked"] as? Int == 0)
    }

    @Test func aDifferentTrustIsRefusedUnlessForgottenOnPurpose() throws {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let state = ["--state", scratch.path("state")]
        #expect(verify(ledger, ["--trust", TamperCorpusTests.trust] + state).status == 0)
        let strangerKey = OpenSSHKey.publicKeyLine(TamperCorpus.stranger.publicKey)
        let refused = verify(ledger, ["--trust", strangerKey] + state)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains(OpenSSHKey.fingerprint(TamperCorpus.stranger.publicKey)))
        #expect(refused.stderr.contains(OpenSSHKey.fingerprint(FixtureLedger.signer1.publicKey)))
        #expect(refused.stderr.contains("--forget"))
        // --full keeps the remembered root (no --trust needed).
        #expect(verify(ledger, ["--full"] + state).status == 0)
        // On purpose: the ledger is then checked against the new root (and fails: signer 1 made it).
        // A --forget whose run is refused takes no effect, so it records nothing: the journal has no forget,
        // and the remembered root still stands.
        let forgotten = verify(ledger, ["--trust", strangerKey, "--forget"] + state)
        #expect(forgotten.status == 1)
        let journal = try String(contentsOfFile: try journalPath(scratch.path("state")), encoding: .utf8)
        #expect(!journal.contains(#""event":"forget""#))
        #expect(verify(ledger, state).status == 0)
        // One that takes effect is journaled, with the root it replaced.
        #expect(verify(ledger, ["--trust", TamperCorpusTests.trust, "--forget"] + state).status == 0)
        let after = try String(contentsOfFile: try journalPath(scratch.path("state")), encoding: .utf8)
        #expect(after.contains(#""event":"forget""#))
        #expect(after.contains(OpenSSHKey.fingerprint(FixtureLedger.signer1.publicKey)))
    }

    func journalPath(_ stateRoot: String) throws -> String {
        let ledgers = stateRoot + "/ledgers/fixture-ledger"
        let roots = try FileManager.default.contentsOfDirectory(atPath: ledgers)
        return "\(ledgers)/\(roots[0])/journal.jsonl"
    }

    @Test func sinceIsHonouredOnlyUnderTheGivenTrust() throws {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let earlier = try Repository.open(ledger).resolveCommit("main~2").hex
        let strangerKey = OpenSSHKey.publicKeyLine(TamperCorpus.stranger.publicKey)
        let state = scratch.path("state")
        let refused = verify(ledger, ["--since", earlier, "--trust", strangerKey, "--state", state])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--since \(earlier)"))
        #expect(!FileManager.default.fileExists(atPath: state + "/ledgers"))  // nothing recorded
        // Signer 2 is on keys/allowed_signers at main~2: accepted, and only two commits are checked.
        let signer2 = OpenSSHKey.publicKeyLine(FixtureLedger.signer2.publicKey)
        let admitted = verify(ledger, ["--since", earlier, "--trust", signer2, "--state", state, "--json"])
        #expect(admitted.status == 0, "\(admitted.stdout) \(admitted.stderr)")
        #expect((json(admitted.stdout)["summary"] as? [String: Any])?["commitsChecked"] as? Int == 2)
        // The counts that cover only the checked commits say so; the whole history's say that.
        #expect((json(admitted.stdout)["summary"] as? [String: Any])?["countsCover"] as? String == "checked range")
        let human = verify(ledger, ["--since", earlier, "--trust", signer2, "--state", scratch.path("other")])
        #expect(human.stdout.contains("commits:      8 in the history; 2 checked in this run"), "\(human.stdout)")
        #expect(human.stdout.contains("— in the checked range only"))
        let whole = verify(ledger, ["--trust", TamperCorpusTests.trust, "--json", "--state", scratch.path("whole")])
        #expect((json(whole.stdout)["summary"] as? [String: Any])?["countsCover"] as? String == "history")
    }

    /// An unsigned base vouches for nothing, whatever allowed signers its tree lists: --since needs a base the
    /// --trust key signed, or one the auditor's state verified before.
    @Test func sinceRefusesABaseTheTrustDidNotSign() throws {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let surgeon = try Surgeon(path: ledger, keys: [FixtureLedger.signer1, FixtureLedger.signer2])
        surgeon.append(
            [.remove(path: TamperCorpus.verdictPath(0))], message: "append: nothing to see",
            signing: Surgeon.Signing.none)
        let unsigned = surgeon.tip.hex
        let signer2 = OpenSSHKey.publicKeyLine(FixtureLedger.signer2.publicKey)
        let state = scratch.path("state")
        let refused = verify(ledger, ["--since", unsigned, "--trust", signer2, "--state", state])
        #expect(refused.status == 64, "\(refused.stdout) \(refused.stderr)")
        #expect(refused.stderr.contains("not signed by the root of trust"))
        #expect(!FileManager.default.fileExists(atPath: state + "/ledgers"))  // nothing remembered as verified
        // Signed by another allowed key than the trust: refused too (signer 2 signed main~1, not signer 1).
        let signer1 = OpenSSHKey.publicKeyLine(FixtureLedger.signer1.publicKey)
        let other = try Repository.open(ledger).resolveCommit("main~1").hex
        #expect(verify(ledger, ["--since", other, "--trust", signer1, "--state", state]).status == 64)
    }

    @Test func aRewriteIsReportedUntilForgottenWithEvidenceStockGitAccepts() throws {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let state = ["--state", scratch.path("state")]
        #expect(verify(ledger, ["--trust", TamperCorpusTests.trust] + state).status == 0)
        let verifiedTip = try Repository.open(ledger).referenceTarget(LedgerLayout.branch)!
        let surgeon = try Surgeon(path: ledger, keys: [FixtureLedger.signer1, FixtureLedger.signer2])
        surgeon.rewrite(from: 5, message: { $1.replacingOccurrences(of: "append:", with: "append (rewritten):") })

        let detected = verify(ledger, ["--json"] + state)
        #expect(detected.status == 1)
        let report = json(detected.stdout)
        let evidence = try #require(report["evidence"] as? [String])
        #expect(evidence.contains { $0.hasSuffix("\(verifiedTip.hex).bundle") })
        #expect(evidence.contains { $0.hasSuffix("\(verifiedTip.hex).commit") })
        let bundle = try #require(evidence.first { $0.hasSuffix(".bundle") })
        // Stock git accepts the bundle against the rewritten repository (which holds its prerequisite).
        let checked = runProcess("git", ["--git-dir", ledger, "bundle", "verify", bundle])
        #expect(checked.status == 0, "\(checked.stderr)")
        let heads = runProcess("git", ["bundle", "list-heads", bundle]).stdout
        #expect(heads.contains(verifiedTip.hex))
        // The signed commit object is the one that was verified.
        let commitBytes = try Data(contentsOf: URL(fileURLWithPath: evidence.first { $0.hasSuffix(".commit") }!))
        #expect(SHA1Hex.objectID(type: "commit", Array(commitBytes)) == verifiedTip.hex)

        // --full does not erase it: still reported, still the old tip remembered.
        let full = verify(ledger, ["--full"] + state)
        #expect(full.status == 1)
        #expect(full.stdout.contains("history was rewritten"))
        #expect(FileManager.default.fileExists(atPath: bundle))
        // Acknowledged on purpose: the rewritten history verifies, and the journal says so.
        let forgotten = verify(ledger, ["--forget"] + state)
        #expect(forgotten.status == 0, "\(forgotten.stdout) \(forgotten.stderr)")
        #expect(verify(ledger, state).status == 0)
        let journal = try String(contentsOfFile: try journalPath(scratch.path("state")), encoding: .utf8)
        #expect(journal.contains(#""event":"rewrite""#))
        #expect(journal.contains(#""acknowledgedRewrites":[{"#))
        #expect(FileManager.default.fileExists(atPath: bundle))
    }

    @Test func anHonestlyLoggedUnauthorizedWriteIsAuthenticButNotCompliant() throws {
        let scenario = LedgerScenario()
        let authority = scenario.authority
        let manifest = scenario.file(authority.manifestBytes, name: "manifest.json")
        scenario.append([manifest, scenario.file(scenario.mandate())], at: "2026-08-08T00:00:00Z")
        // The backend wrote "banned" with no verdict at all, and logs it, as it must.
        let writes = scenario.writeRequests([
            (
                at: "2026-08-09T00:00:00Z", binding: "enrollment:device-1", by: "reconciliation", caseOpen: false,
                banned: true, outcome: "ok"
            )
        ])
        let appended = scenario.append([writes], at: "2026-08-09T00:00:00Z")
        #expect(appended.stderr.contains("conduct finding"))
        #expect(appended.stderr.contains("WriteReplayPolicy"))

        let trust = scenario.signer + ".pub"
        let result = CLI.run(["verify", scenario.ledger, "--trust", trust, "--json"] + Self.at)
        #expect(result.status == 2, "\(result.stdout)")
        let report = json(result.stdout)
        #expect(report["authentic"] as? Bool == true)
        #expect(report["compliant"] as? Bool == false)
        let finding = try #require((report["findings"] as? [[String: Any]])?.first)
        #expect(finding["kind"] as? String == "conduct")
        let write = try #require(finding["write"] as? [String: Any])
        #expect(write["sequence"] as? Int == 1)
        #expect(write["recordedAt"] as? String == "2026-08-09T00:00:00Z")
        #expect(write["written"] as? String == "10 by reconciliation")
        #expect(write["rulesGive"] as? String == "00 by reconciliation")
        let human = CLI.run(["verify", scenario.ledger, "--trust", trust] + Self.at)
        #expect(human.stdout.hasPrefix("VERIFIED WITH FINDINGS"))

        // Reconcile runs, says so, and plans the corrective write; gate answers.
        let reconcile = CLI.run([
            "reconcile", scenario.ledger, "--trust", trust, "--at", "2026-08-10T00:00:00Z",
        ])
        #expect(reconcile.status == 0, "\(reconcile.stderr)")
        #expect(reconcile.stderr.contains("1 conduct finding"))
        #expect(
            reconcile.stdout.contains(
                "10    00        00     reconciliation  (overdue clear)  (corrects unauthorized write #1)"),
            "\(reconcile.stdout)")
        let gate = CLI.run([
            "gate", scenario.ledger, "--trust", trust, "--binding", "enrollment:device-1", "--at",
            "2026-08-10T00:00:00Z", "--json",
        ])
        #expect(gate.status == 0)
        #expect(json(gate.stdout)["conductFindingCount"] as? Int == 1)
    }

    /// Repeated findings of one policy are capped on the human report with a count; --json lists all.
    @Test func repeatedFindingsAreCappedWithACount() {
        let scenario = LedgerScenario()
        scenario.append(
            [
                scenario.file(scenario.authority.manifestBytes, name: "manifest.json"),
                scenario.file(scenario.mandate()),
            ],
            at: "2026-08-08T00:00:00Z")
        let writes = (0..<8).map { minute in
            (
                at: "2026-08-09T00:0\(minute):00Z", binding: "enrollment:device-1", by: "reconciliation",
                caseOpen: minute % 2 == 0, banned: true, outcome: "ok"
            )
        }
        scenario.append([scenario.writeRequests(writes)], at: "2026-08-09T00:10:00Z")
        let trust = scenario.signer + ".pub"
        let human = CLI.run(["verify", scenario.ledger, "--trust", trust] + Self.at)
        #expect(human.status == 2)
        #expect(human.stdout.components(separatedBy: "\nWriteReplayPolicy: ").count - 1 == 5)
        #expect(human.stdout.contains("… and 3 more WriteReplayPolicy finding(s); --json lists all"))
        let all = CLI.run(["verify", scenario.ledger, "--trust", trust, "--json"] + Self.at)
        #expect((json(all.stdout)["findings"] as? [Any])?.count == 8)
    }

    @Test func trustArgumentsExitAsDocumented() {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        #expect(verify(ledger, ["--trust", scratch.path("no-such-file.pub")]).status == 65)
        let garbage = scratch.path("garbage.pub")
        _ = FileManager.default.createFile(atPath: garbage, contents: Data("not a key\n".utf8))
        #expect(verify(ledger, ["--trust", garbage]).status == 64)
        #expect(verify(ledger, ["--trust", "SHA256:"]).status == 64)
    }

    /// An incremental run continues from `replay.state` (the bindings, last written bits and facts it holds
    /// judge the new writes); with the file gone, the same state is rebuilt from the tree and judges alike.
    @Test func anIncrementalRunJudgesFromTheReplayMapsOrTheirRebuild() throws {
        let scenario = LedgerScenario()
        scenario.append([scenario.file(scenario.mandate())], at: "2026-08-09T00:00:00Z")
        let state = scenario.scratch.path("auditor")
        let trust = scenario.signer + ".pub"
        let first = CLI.run(["verify", scenario.ledger, "--trust", trust, "--state", state] + Self.at)
        #expect(first.status == 0, "\(first.stdout)")
        let maps = try #require(
            FileManager.default.enumerator(atPath: state)?.compactMap { $0 as? String }.first {
                $0.hasSuffix("/replay.state")
            })
        // A run that finds nothing new leaves the megabytes of side files as they are (same file, not rewritten).
        func inode() throws -> Int {
            try FileManager.default.attributesOfItem(atPath: state + "/" + maps)[.systemFileNumber] as! Int
        }
        let before = try inode()
        #expect(CLI.run(["verify", scenario.ledger, "--state", state] + Self.at).status == 0)
        #expect(try inode() == before)
        for (day, dropMaps) in [("10", false), ("11", true)] {
            if dropMaps { try FileManager.default.removeItem(atPath: state + "/" + maps) }
            let wrong = scenario.writeRequests([
                ("2026-08-\(day)T00:00:00Z", "enrollment:device-1", "reconciliation", false, true, "ok")
            ])
            scenario.append([wrong], at: "2026-08-\(day)T01:00:00Z")
            let run = CLI.run(["verify", scenario.ledger, "--state", state, "--json"] + Self.at)
            #expect(run.status == 2, "\(run.stdout)")
            #expect(run.stdout.contains("\"resumedFrom\""), "the run continued from the checkpoint")
            #expect(run.stdout.contains("WriteReplayPolicy"), "\(run.stdout)")
        }
    }
}

/// Git's object id of some bytes as an object of `type`, computed by stock `git hash-object`.
enum SHA1Hex {
    static func objectID(type: String, _ bytes: [UInt8]) -> String {
        let scratch = ScratchDirectory()
        let path = scratch.path("object")
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return runProcess("git", ["hash-object", "-t", type, "--literally", path]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
    }
}
