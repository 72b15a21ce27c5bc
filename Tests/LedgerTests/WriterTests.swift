import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerWriter

@Suite("Writer: init, append, keys, log, show")
struct WriterTests {
    @Test func initCreatesADescriptorSignersAndASignedFirstCommit() throws {
        let scenario = LedgerScenario()
        #expect(scenario.commits.count == 1)
        let descriptor = try LedgerDescriptor(
            json: try CanonicalJSON.parseCanonical(Array(try #require(scenario.show("ledger.json")).utf8)))
        #expect(descriptor.interface == "onym:component:onym-ios")
        #expect(descriptor.appleAccount == .init(teamId: "TEAM123456", apps: ["app.onym.ios", "app.onym.ios.beta"]))
        #expect(descriptor.countersigningKeys(for: WireString(scenario.authority.componentId)).count == 1)
        let signers = try #require(scenario.show("keys/allowed_signers"))
        #expect(signers.hasPrefix("onym-ledger namespaces=\"git\" ssh-ed25519 "))
        let message = runProcess("git", ["--git-dir", scenario.ledger, "log", "-1", "--format=format:%B"]).stdout
        #expect(LedgerTrailers(message: message) == .empty)
        // A second init refuses.
        #expect(CLI.run(scenario.initArguments()).status == 65)
    }

    @Test func appendsEveryKindAndRecordsReceiptsAtTheBatchTime() throws {
        let scenario = LedgerScenario()
        let mandateJSON = scenario.mandate()
        let mandate = try Mandate(json: mandateJSON)
        let ban = FixtureRecords.verdict(
            .ban, caseId: "case-1", mandate: mandate, authority: scenario.authority, classId: "unsolicited-pornography",
            decidedAt: "2026-08-18T00:00:00Z")
        let manifestPath = scenario.file(scenario.authority.manifestBytes, name: "manifest.json")
        let signature = scenario.authority.operatorKey.signature(for: scenario.authority.manifestBytes)
        _ = scenario.file(signature, name: "manifest.json.sig")
        scenario.append(
            [scenario.file(FixtureProfile.appleDeviceCheck), manifestPath, scenario.file(mandateJSON)],
            at: "2026-08-10T00:00:00Z")
        scenario.append(
            [scenario.file(FixtureRecords.submission(ban, authority: scenario.authority))], at: "2026-08-18T00:05:00Z")

        let verdict = try Verdict(json: ban)
        let receiptPath = scenario.recordPath(VerdictReceipt.self, verdict.ref)
        let receipt = try VerdictReceipt(
            json: try CanonicalJSON.parseCanonical(Array(try #require(scenario.show(receiptPath)).utf8)))
        #expect(receipt.status == .stored)  // suspensive: executeAfter is 30 days after decidedAt
        #expect(receipt.receivedAt == Instant.parse("2026-08-18T00:05:00Z"))
        #expect(
            scenario.show(scenario.recordPath(Verdict.self, verdict.ref))
                == String(decoding: CanonicalJSON.encode(ban), as: UTF8.self))
        #expect(
            scenario.show(scenario.recordPath(AuthorityManifest.self, scenario.authority.manifestHash))
                == String(decoding: scenario.authority.manifestBytes, as: UTF8.self))
        #expect(scenario.show(scenario.manifestSignaturePath(scenario.authority.manifestHash)) != nil)
        let profileRef = try EnforcementProfile(json: FixtureProfile.appleDeviceCheck).ref
        #expect(scenario.show(scenario.recordPath(EnforcementProfile.self, profileRef)) != nil)

        // Redelivery of the same verdict is a no-op: no commit, no second receipt.
        let before = scenario.tip
        let again = scenario.append(
            [scenario.file(FixtureRecords.submission(ban, authority: scenario.authority))], at: "2026-08-19T00:00:00Z")
        #expect(again.stdout.contains("nothing new"))
        #expect(scenario.tip == before)
    }

    /// The planner decodes a consented manifest once per batch for all the submissions that carry the same
    /// bytes: submissions pinned to two manifests of one authority, interleaved in one batch, store both
    /// manifests and receive every verdict.
    @Test func submissionsCarryingTwoManifestsInOneBatchStoreBoth() throws {
        let scenario = LedgerScenario()
        let renewed = FixtureAuthority(validUntil: "2027-06-30T23:59:59Z")
        try #require(renewed.manifestHash != scenario.authority.manifestHash)
        let first = try Mandate(json: scenario.mandate(binding: "enrollment:device-1"))
        let second = try Mandate(
            json: FixtureRecords.mandate(
                user: scenario.user, interface: scenario.interface, authority: renewed,
                classes: ["csam", "unsolicited-pornography"], deviceBinding: "enrollment:device-2",
                acceptedAt: "2026-08-08T00:00:00Z"))
        scenario.append([scenario.file(first.json), scenario.file(second.json)], at: "2026-08-10T00:00:00Z")
        let verdicts = [
            (first, scenario.authority, "case-1"), (second, renewed, "case-2"), (first, scenario.authority, "case-3"),
        ]
        .map { mandate, authority, caseId in
            (
                FixtureRecords.verdict(
                    .openCase, caseId: caseId, mandate: mandate, authority: authority, classId: "csam",
                    decidedAt: "2026-08-18T00:00:00Z"),
                authority
            )
        }
        scenario.append(
            verdicts.map { scenario.file(FixtureRecords.submission($0.0, authority: $0.1)) }, at: "2026-08-18T00:05:00Z"
        )
        for authority in [scenario.authority, renewed] {
            #expect(
                scenario.show(scenario.recordPath(AuthorityManifest.self, authority.manifestHash))
                    == String(decoding: authority.manifestBytes, as: UTF8.self))
        }
        for (json, _) in verdicts {
            let verdict = try Verdict(json: json)
            #expect(scenario.show(scenario.recordPath(VerdictReceipt.self, verdict.ref)) != nil, "\(verdict.caseId)")
        }
        let verified = CLI.run(["verify", scenario.ledger, "--trust", scenario.signer + ".pub", "--json"])
        #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
    }

    @Test func writeRequestsAreChainedAndAuditExportsImportWithTheirHashes() throws {
        let scenario = LedgerScenario()
        scenario.append([scenario.file(scenario.mandate())], at: "2026-08-09T00:00:00Z")
        scenario.append(
            [
                scenario.writeRequests([
                    ("2026-08-10T00:00:00Z", "enrollment:device-1", "reconciliation", false, false, "ok"),
                    (
                        "2026-08-10T00:01:00Z", "enrollment:device-1", "reconciliation", false, false,
                        "failed: mark_write_failed: 503"
                    ),
                ])
            ], at: "2026-08-10T01:00:00Z")
        let first = try WriteLogEntry(
            json: try CanonicalJSON.parseCanonical(
                Array(try #require(scenario.show(LedgerLayout.logEntryPath(1))).utf8)))
        let second = try WriteLogEntry(
            json: try CanonicalJSON.parseCanonical(
                Array(try #require(scenario.show(LedgerLayout.logEntryPath(2))).utf8)))
        #expect(first.previousHash == "genesis")
        #expect(second.previousHash == first.entryHash)
        #expect(second.recomputedHash == second.entryHash)

        // An audit export restarts at sequence 1: rows already logged are skipped, new ones continue the chain.
        let third = try WriteLogEntry(
            sequence: 3, recordedAt: "2026-08-11T00:00:00Z", deviceBinding: "enrollment:device-1",
            authorizedBy: "reconciliation", caseOpen: false, banned: false, outcome: "ok",
            previousHash: second.entryHash)
        let export = JSONObject([
            ("chainIntact", .bool(true)), ("brokenAtSequence", .null),
            ("entries", .array([first, second, third].map { .object($0.json) })),
        ])
        let result = scenario.append([scenario.file(export)], at: "2026-08-11T01:00:00Z")
        #expect(result.stdout.contains("2 already present"))
        let message = runProcess("git", ["--git-dir", scenario.ledger, "log", "-1", "--format=format:%B"]).stdout
        #expect(LedgerTrailers(message: message)?.logSize == 3)
        #expect(LedgerTrailers(message: message)?.logHead == third.entryHash)
    }

    /// Each bad batch is refused with exit 65, a message naming the file and the rule, and the ledger unchanged.
    @Test func badBatchesLeaveTheLedgerUntouched() throws {
        let scenario = LedgerScenario()
        let mandateJSON = scenario.mandate()
        let mandate = try Mandate(json: mandateJSON)
        scenario.append([scenario.file(mandateJSON)], at: "2026-08-09T00:00:00Z")
        let tip = scenario.tip
        let good = scenario.writeRequests([
            ("2026-08-10T00:00:00Z", "enrollment:device-1", "reconciliation", false, false, "ok")
        ])

        var forgedMandate = scenario.mandate(binding: "enrollment:device-2")
        forgedMandate.set("deviceBinding", .string("enrollment:device-3"))  // after signing
        let otherInterface = FixtureInterface(rootSeed: FixtureSeed.repeated(0x0c))
        let foreign = FixtureRecords.mandate(
            user: scenario.user, interface: otherInterface, authority: scenario.authority,
            classes: ["csam"], deviceBinding: "enrollment:device-4", acceptedAt: "2026-08-08T00:00:00Z")
        let noCountersign = FixtureRecords.mandate(
            user: scenario.user, interface: scenario.interface, authority: scenario.authority,
            classes: ["csam"], deviceBinding: "enrollment:device-5", acceptedAt: "2026-08-08T00:00:00Z",
            countersign: false)
        let early = FixtureRecords.verdict(
            .dismiss, caseId: "c", mandate: mandate, authority: scenario.authority, classId: "csam",
            decidedAt: "2026-09-01T00:00:00Z")
        let wrongClass = FixtureRecords.verdict(
            .dismiss, caseId: "c", mandate: mandate, authority: scenario.authority,
            classId: "credible-violence", decidedAt: "2026-08-09T00:00:00Z")
        let orphan = FixtureRecords.verdict(
            .dismiss, caseId: "c", mandate: try Mandate(json: scenario.mandate(binding: "enrollment:x")),
            authority: scenario.authority, classId: "csam", decidedAt: "2026-08-09T00:00:00Z")
        let brokenChain = try WriteLogEntry(
            sequence: 1, recordedAt: "2026-08-10T00:00:00Z", deviceBinding: "enrollment:device-1",
            authorizedBy: "x", caseOpen: false, banned: false, outcome: "ok",
            previousHash: String(repeating: "a", count: 64))
        var forgedHash = try WriteLogEntry(
            sequence: 1, recordedAt: "2026-08-10T00:00:00Z", deviceBinding: "enrollment:device-1",
            authorizedBy: "x", caseOpen: false, banned: false, outcome: "ok", previousHash: "genesis"
        ).json
        forgedHash.set("banned", .bool(true))
        let gap = try WriteLogEntry(
            sequence: 2, recordedAt: "2026-08-10T00:00:00Z", deviceBinding: "enrollment:device-1",
            authorizedBy: "x", caseOpen: false, banned: false, outcome: "ok", previousHash: "genesis")

        let cases: [(String, [String], String)] = [
            (
                "forged mandate", [good, scenario.file(forgedMandate)],
                "MandateSignaturePolicy: the user signature is invalid"
            ),
            (
                "other interface's countersignature", [scenario.file(foreign)],
                "MandateSignaturePolicy: the interface countersignature verifies under no key"
            ),
            (
                "missing countersignature", [scenario.file(noCountersign)],
                "MandateSignaturePolicy: the interface countersignature is missing"
            ),
            (
                "verdict from the future",
                [scenario.file(FixtureRecords.submission(early, authority: scenario.authority))],
                "VerdictValidationPolicy: invalid when received at 2026-08-12T00:00:00Z: notYetValid"
            ),
            (
                "class outside mandate",
                [scenario.file(FixtureRecords.submission(wrongClass, authority: scenario.authority))],
                "VerdictValidationPolicy: invalid when received at 2026-08-12T00:00:00Z: classOutsideMandate"
            ),
            (
                "verdict without its mandate",
                [scenario.file(FixtureRecords.submission(orphan, authority: scenario.authority))],
                "VerdictAuthorityPolicy: names mandate"
            ),
            (
                "bare verdict without a manifest", [scenario.file(wrongClass)],
                "VerdictAuthorityPolicy: the mandate's consented manifest"
            ),
            ("chain break", [scenario.file(brokenChain.json)], "ChainLinkPolicy: previousHash aaaa"),
            ("forged entry hash", [scenario.file(forgedHash)], "ChainLinkPolicy: entryHash"),
            ("sequence gap", [scenario.file(gap.json)], "ChainLinkPolicy: expected sequence 1 next"),
            (
                "unknown binding",
                [scenario.writeRequests([("2026-08-10T00:00:00Z", "enrollment:ghost", "x", false, false, "ok")])],
                "MandateScopePolicy: a write to device binding enrollment:ghost"
            ),
            (
                "write after the batch time",
                [scenario.writeRequests([("2026-08-13T00:00:00Z", "enrollment:device-1", "x", false, false, "ok")])],
                "TimeOrderPolicy"
            ),
            (
                "write before the tip's commit",
                [scenario.writeRequests([("2026-08-01T00:00:00Z", "enrollment:device-1", "x", false, false, "ok")])],
                "TimeOrderPolicy"
            ),
            ("not JSON", [scenario.file(Array("{\"a\":".utf8))], "RecordSchemaPolicy: invalidJSON"),
            ("gate answer", [scenario.file(GateResult.clear.json)], "RecordSchemaPolicy: unknownKind"),
            (
                "write requests and an export in one batch",
                [
                    scenario.writeRequests([("2026-08-11T00:00:00Z", "enrollment:device-1", "x", false, false, "ok")]),
                    scenario.file(JSONObject([("entries", .array([]))])),
                ],
                "append.mixedWrites"
            ),
        ]
        for (name, files, rule) in cases {
            let result = CLI.run(
                ["append", scenario.ledger, "--signing-key", scenario.signer, "--at", "2026-08-12T00:00:00Z"] + files)
            #expect(result.status == 65, "\(name): \(result.stdout)")
            #expect(result.stderr.contains(rule), "\(name): \(result.stderr)")
            #expect(result.stderr.contains(files.last!), "\(name) names the file: \(result.stderr)")
            #expect(scenario.tip == tip, "\(name) changed the ledger")
        }
        #expect(runProcess("git", ["--git-dir", scenario.ledger, "count-objects", "-v"]).status == 0)
    }

    @Test func sameInputsKeyAndTimeGiveTheSameCommitIds() throws {
        let first = LedgerScenario()
        let second = LedgerScenario()
        for scenario in [first, second] {
            scenario.append([scenario.file(scenario.mandate())], at: "2026-08-09T00:00:00Z")
            scenario.append(
                [
                    scenario.writeRequests([
                        ("2026-08-10T00:00:00Z", "enrollment:device-1", "reconciliation", false, false, "ok")
                    ])
                ],
                at: "2026-08-10T00:00:00Z")
        }
        #expect(first.commits == second.commits)
        #expect(first.commits.count == 3)
    }

    @Test func keyRotationAddsAndRemovesSigners() throws {
        let scenario = LedgerScenario()
        let next = scenario.scratch.path("next")
        #expect(CLI.run(["keygen", "--out", next, "--seed", String(repeating: "02", count: 32)]).status == 0)
        let mandate = scenario.file(scenario.mandate())
        // Not yet allowed.
        let refused = CLI.run([
            "append", scenario.ledger, "--signing-key", next, "--at", "2026-08-09T00:00:00Z", mandate,
        ])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("signingKey.notAllowed"))
        #expect(
            CLI.run([
                "keys", "rotate", scenario.ledger, "--signing-key", scenario.signer, "--add", next + ".pub",
                "--at", "2026-08-09T00:00:00Z",
            ]).status == 0)
        #expect(
            CLI.run([
                "keys", "rotate", scenario.ledger, "--signing-key", next, "--remove", scenario.signer + ".pub",
                "--at", "2026-08-09T00:00:01Z", "--log-key", scenario.signer,
            ]).status == 0)
        // The log keeps the key it declared at init: a commit-key rotation does not change the log's identity.
        let withoutLogKey = CLI.run([
            "append", scenario.ledger, "--signing-key", next, "--at", "2026-08-09T00:00:02Z", mandate,
        ])
        #expect(withoutLogKey.status == 65)
        #expect(withoutLogKey.stderr.contains("logKey.notDeclared"))
        #expect(
            CLI.run([
                "append", scenario.ledger, "--signing-key", next, "--at", "2026-08-09T00:00:02Z", mandate, "--log-key",
                scenario.signer,
            ]).status == 0)
        let old = CLI.run([
            "append", scenario.ledger, "--signing-key", scenario.signer, "--at", "2026-08-09T00:00:03Z", mandate,
        ])
        #expect(old.status == 65)
        let last = CLI.run([
            "keys", "rotate", scenario.ledger, "--signing-key", next, "--remove", next + ".pub", "--log-key",
            scenario.signer,
        ])
        #expect(last.status == 65)
        #expect(last.stderr.contains("keys.lastKey"))
        #expect(scenario.commits.count == 4)
    }

    @Test func logAndShowBrowseBatchesRecordsAndEntries() throws {
        let scenario = LedgerScenario()
        let mandate = try Mandate(json: scenario.mandate())
        scenario.append(
            [
                scenario.file(mandate.json),
                scenario.writeRequests([
                    ("2026-08-10T00:00:00Z", "enrollment:device-1", "reconciliation", false, false, "ok")
                ]),
            ],
            at: "2026-08-10T00:00:00Z")
        let log = CLI.run(["log", scenario.ledger])
        #expect(log.status == 0)
        #expect(log.stdout.contains("append: 1 mandate, 1 write-log entry"))
        #expect(log.stdout.contains("init: ledger onym:component:onym-ios"))
        let json = CLI.run(["log", scenario.ledger, "--json"])
        #expect(json.stdout.contains(#""logSize":1"#))
        let record = CLI.run(["show", scenario.ledger, mandate.ref.hex])
        #expect(record.stdout == String(decoding: CanonicalJSON.encode(mandate.json), as: UTF8.self) + "\n")
        #expect(CLI.run(["show", scenario.ledger, "log:1"]).stdout.contains(#""sequence":1"#))
        let batch = CLI.run(["show", scenario.ledger, String(scenario.tip.prefix(10))])
        #expect(batch.stdout.contains(LedgerLayout.logEntryPath(1)))
        #expect(CLI.run(["show", scenario.ledger, "nonsense"]).status == 65)
        // The record prefixes gate and verify print (16 hex digits) work too.
        let prefixed = CLI.run(["show", scenario.ledger, String(mandate.ref.hex.prefix(16))])
        #expect(prefixed.stdout == record.stdout)
        // Shorter than git's shortest abbreviation (4 hex digits): no record is found by it.
        #expect(CLI.run(["show", scenario.ledger, String(mandate.ref.hex.prefix(3))]).status == 65)
    }

    /// `keys list` shows who may sign the next commit.
    @Test func keysListShowsTheCurrentSigners() throws {
        let scenario = LedgerScenario()
        let next = scenario.scratch.path("next")
        #expect(CLI.run(["keygen", "--out", next, "--seed", String(repeating: "02", count: 32)]).status == 0)
        #expect(
            CLI.run([
                "keys", "rotate", scenario.ledger, "--signing-key", scenario.signer, "--add", next + ".pub", "--at",
                "2026-08-09T00:00:00Z",
            ]).status == 0)
        let listed = CLI.run(["keys", "list", scenario.ledger])
        #expect(listed.status == 0)
        #expect(listed.stdout.split(separator: "\n").filter { $0.hasPrefix("SHA256:") }.count == 2)
        #expect(listed.stdout.contains("log key in force since"))
        let json = CLI.run(["keys", "list", scenario.ledger, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["signers"] as? [[String: Any]])?.count == 2)
        #expect((object["logKeys"] as? [[String: Any]])?.count == 1)
        #expect(object["log"] as? String != nil)
        #expect(CLI.run(["keys", "rotate", scenario.ledger, "--add", next + ".pub"]).status == 64)
    }

    /// Init refuses a ledger every later append would trip over, and shows what it would write.
    @Test func initCannotCreateAnUnusableLedger() throws {
        let scenario = LedgerScenario(initialize: false)
        let base = ["init", scenario.ledger, "--interface", "onym:component:x", "--signing-key", scenario.signer]
        let noKey = CLI.run(base)
        #expect(noKey.status == 64)
        #expect(noKey.stderr.contains("--interface-key is required"))
        #expect(!FileManager.default.fileExists(atPath: scenario.ledger))
        let key = ["--interface-key", scenario.interface.countersigningKey(for: "").publicKey.onymKey]
        #expect(CLI.run(base + key + ["--team-id", "team", "--app", "app.onym.ios"]).stderr.contains("Apple team id"))
        #expect(
            CLI.run(base + key + ["--team-id", "ONYMTEAM01", "--app", "onym app"]).stderr.contains("bundle identifier"))
        let dry = CLI.run(base + key + ["--team-id", "ONYMTEAM01", "--app", "app.onym.ios", "--dry-run"])
        #expect(dry.status == 0)
        let descriptor = try LedgerDescriptor(json: try CanonicalJSON.parse(Array(dry.stdout.utf8.dropLast())))
        #expect(descriptor.appleAccount?.teamId == "ONYMTEAM01")
        #expect(!FileManager.default.fileExists(atPath: scenario.ledger))
        #expect(CLI.run(base + ["--no-mandates"]).status == 0)
    }
}
