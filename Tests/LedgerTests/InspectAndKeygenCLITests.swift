import Foundation
import Testing

@testable import LedgerFormat
import LedgerStore
import LedgerTestSupport

@Suite("CLI: inspect and keygen")
struct InspectAndKeygenCLITests {
    static let interfaceKey = "onym:key:66be7e332c7a453332bd9d0a7f7db055f5c5ef1a06ada66d98b39fb6810c473a"

    @Test func cleanMandateExitsZero() {
        let result = CLI.run([
            "inspect", Vectors.url("reference/derived-mandate.json").path, "--key", Self.interfaceKey,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("content address:  1e45818186bf94f95785175e1e206085908dd6d10099b9d5a51f3df6af73f3ce")
        )
        #expect(result.stdout.contains("signature interface: valid"))
        #expect(result.stdout.contains("findings:         none"))
    }

    @Test func unknownInterfaceKeyIsReportedButNotAFinding() {
        let result = CLI.run(["inspect", Vectors.url("reference/derived-mandate.json").path, "--json"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(#"{"role":"interface","status":"key-unknown"}"#))
        #expect(result.stdout.contains(#""findings":[]"#))
    }

    @Test func tamperedVerdictIsAFinding() throws {
        let scratch = ScratchDirectory()
        var object = try CanonicalJSON.parse(Vectors.bytes("reference/derived-ban-verdict.json"))
        object.set("banExpires", .string("2027-12-16T00:00:00Z"))
        let path = scratch.path("verdict.json")
        try Data(CanonicalJSON.encode(object)).write(to: URL(fileURLWithPath: path))
        let result = CLI.run([
            "inspect", path, "--key", "onym:key:ea4a6c63e29c520abef5507b132ec5f9954776aebebe7b92421eea691446d22c",
            "--json",
        ])
        #expect(result.status == 1)
        #expect(result.stdout.contains(#""policy":"VerdictAuthorityPolicy""#), "\(result.stdout)")
    }

    /// A pretty-printed mandate is what append accepts (it stores the canonical form), so
    /// inspect does not call it a finding.
    @Test func prettyPrintedMandateIsCleanAsAppendAcceptsIt() throws {
        let scratch = ScratchDirectory()
        let pretty = PrettyJSON.render(
            .object(try CanonicalJSON.parse(Vectors.bytes("reference/derived-mandate.json"))))
        let path = scratch.path("mandate.json")
        try Data(pretty).write(to: URL(fileURLWithPath: path))
        let result = CLI.run(["inspect", path, "--key", Self.interfaceKey])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("canonical:        no (append stores the canonical form)"))
        #expect(result.stdout.contains("findings:         none"))
    }

    @Test func verdictValidationWithMandateAndManifest() throws {
        let scratch = ScratchDirectory()
        let authority = FixtureAuthority()
        let mandateJSON = FixtureRecords.mandate(
            user: Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x05))!, interface: FixtureInterface(),
            authority: authority, classes: ["unsolicited-pornography"], deviceBinding: "enrollment:1",
            acceptedAt: "2026-08-08T00:00:00Z")
        let mandate = try Mandate(json: mandateJSON)
        let verdict = FixtureRecords.verdict(
            .ban, caseId: "case-1", mandate: mandate, authority: authority, classId: "unsolicited-pornography",
            decidedAt: "2026-08-18T00:00:00Z")
        try Data(CanonicalJSON.encode(mandateJSON)).write(to: URL(fileURLWithPath: scratch.path("m.json")))
        try Data(CanonicalJSON.encode(FixtureRecords.submission(verdict, authority: authority)))
            .write(to: URL(fileURLWithPath: scratch.path("s.json")))
        let stored = CLI.run([
            "inspect", scratch.path("s.json"), "--mandate", scratch.path("m.json"), "--at", "2026-08-18T00:01:00Z",
        ])
        #expect(stored.status == 0, "\(stored.stdout)\(stored.stderr)")
        #expect(stored.stdout.contains("valid, stored until executeAfter"))
        let early = CLI.run([
            "inspect", scratch.path("s.json"), "--mandate", scratch.path("m.json"), "--at", "2026-08-17T00:00:00Z",
        ])
        #expect(early.status == 1)
        #expect(early.stdout.contains("VerdictValidationPolicy: notYetValid"), "\(early.stdout)")
    }

    @Test(arguments: [
        (#"{"a":1,"a":2}"#, "duplicateKey"), ("[1]", "notAnObject"), (#"{"a":1.5}"#, "floatNotAllowed"),
        (#"{"x":1}"#, "unknownKind"), ("", "invalidJSON"),
    ])
    func unreadableInputExits65(_ input: String, _ code: String) {
        let result = CLI.run(["inspect", "-"], stdin: Data(input.utf8))
        #expect(result.status == 65)
        #expect(result.stderr.contains(code))
    }

    @Test func missingFileExits65() {
        let result = CLI.run(["inspect", "/nonexistent/record.json"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("/nonexistent/record.json: no such file"))
    }

    @Test(arguments: [
        ["inspect"], ["inspect", "a", "b"], ["inspect", "a", "--bogus"], ["inspect", "a", "--key", "nope"],
        ["keygen"], ["keygen", "--out", "x", "--seed", "zz"], ["frobnicate"], [],
    ])
    func usageErrorsExit64(_ arguments: [String]) {
        #expect(CLI.run(arguments).status == 64)
    }

    @Test(arguments: ["inspect", "keygen"])
    func everyVerbHasHelp(_ verb: String) {
        let result = CLI.run([verb, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: onym-ledger \(verb)"))
    }

    @Test func keygenWritesKeysSSHKeygenReadsAndNeverOverwrites() throws {
        let scratch = ScratchDirectory()
        let path = scratch.path("signing")
        let result = CLI.run(["keygen", "--out", path, "--seed", String(repeating: "07", count: 32)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "onym:key:ea4a6c63e29c520abef5507b132ec5f9954776aebebe7b92421eea691446d22c\n")
        let derived = runProcess("ssh-keygen", ["-y", "-f", path])
        #expect(derived.status == 0)
        #expect(derived.stdout.hasPrefix(try String(contentsOfFile: path + ".pub", encoding: .utf8).prefix(80)))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(CLI.run(["keygen", "--out", path]).status == 64)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func versionAndTopLevelHelpNameEveryExitCode() {
        let version = CLI.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("onym-ledger ") && version.stdout.contains("ledger format 2"))
        let help = CLI.run(["--help"])
        #expect(help.stdout.contains("2 verified with conduct findings"))
    }

    /// Messages in plain words — no Swift function names, no libgit2 codes.
    @Test func gitFailuresReadInPlainWords() throws {
        let scratch = ScratchDirectory()
        let empty = scratch.path("emptydir")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let key = scratch.path("k")
        #expect(CLI.run(["keygen", "--out", key]).status == 0)
        let writes = scratch.path("w.ndjson")
        let request =
            #"{"authorizedBy":"reconciliation","banned":false,"caseOpen":false,"deviceBinding":"enrollment:x","outcome":"ok","recordedAt":"2026-08-01T00:00:00Z"}"#
        try Data((request + "\n").utf8).write(to: URL(fileURLWithPath: writes))
        for arguments in [
            ["verify", empty, "--trust", key + ".pub"], ["log", empty], ["show", empty, "log:1"],
            ["append", empty, "--signing-key", key, writes],
        ] {
            let result = CLI.run(arguments)
            #expect(result.status == 65, "\(arguments[0])")
            #expect(result.stderr.contains("is not a git repository"), "\(arguments[0]): \(result.stderr)")
            #expect(!result.stderr.contains("(_:)") && !result.stderr.contains("libgit2 error"), "\(result.stderr)")
        }
    }
}

/// `inspect` reads every input kind `append` takes, with the same recognition, decoders and
/// rule names, and says what it could not check.
@Suite("CLI: inspect and append agree")
struct InspectAppendAgreementTests {
    @Test func everyInputKindAppendTakesIsInspectedUnderAppendsNames() throws {
        let scenario = LedgerScenario()
        scenario.append([scenario.file(scenario.mandate())], at: "2026-08-09T00:00:00Z")
        let writes = scenario.writeRequests([
            ("2026-08-10T00:00:00Z", "enrollment:device-1", "reconciliation", false, false, "ok"),
            ("2026-08-10T00:00:01Z", "enrollment:device-1", "reconciliation", false, false, "ok"),
        ])
        var forgedUser = scenario.mandate(binding: "enrollment:device-2")
        if case .array(let signatures) = forgedUser["signatures"]! {
            forgedUser.set("signatures", .array([signatures[1], signatures[1]]))
        }
        let badOutcome = scenario.file(
            Array(
                #"{"authorizedBy":"x","banned":false,"caseOpen":false,"deviceBinding":"enrollment:device-1","outcome":"maybe","recordedAt":"2026-08-10T00:00:00Z"}"#
                    .utf8))
        let entry = try WriteLogEntry(
            sequence: 1, recordedAt: "2026-08-10T00:00:00Z", deviceBinding: "enrollment:device-1",
            authorizedBy: "reconciliation", caseOpen: false, banned: false, outcome: "ok",
            previousHash: WriteLogEntry.genesis)
        var forgedEntry = entry.json
        forgedEntry.set("entryHash", .string(String(repeating: "b", count: 64)))
        let forgedExport = scenario.file(JSONObject([("entries", .array([.object(forgedEntry)]))]))
        // (file, kind inspect names, the policy both name or nil when both accept it)
        let cases: [(String, String, String?)] = [
            (forgedExport, "audit-export", "ChainLinkPolicy"),
            (writes, "write-requests", nil),
            (
                scenario.file(PrettyJSON.render(.object(scenario.mandate(binding: "enrollment:device-3")))), "mandate",
                nil
            ),
            (scenario.file(forgedUser), "mandate", "MandateSignaturePolicy"),
            (badOutcome, "write-requests", "RecordSchemaPolicy"),
        ]
        for (file, kind, policy) in cases {
            let key = scenario.interface.countersigningKey(for: scenario.authority.componentId).publicKey.onymKey
            let inspected = CLI.run(["inspect", file, "--key", key, "--json"])
            #expect(inspected.stdout.contains(#""kind":"\#(kind)""#), "\(file): \(inspected.stdout)\(inspected.stderr)")
            let appended = CLI.run(
                ["append", scenario.ledger, "--signing-key", scenario.signer, "--at", "2026-08-10T01:00:00Z", file])
            if let policy {
                #expect(inspected.status == 1, "\(file): \(inspected.stdout)")
                #expect(inspected.stdout.contains(#""policy":"\#(policy)""#), "\(file): \(inspected.stdout)")
                #expect(appended.status == 65, "\(file): \(appended.stderr)")
                #expect(appended.stderr.contains(policy), "\(file): \(appended.stderr)")
            } else {
                #expect(inspected.status == 0, "\(file): \(inspected.stdout)")
                #expect(appended.status == 0, "\(file): \(appended.stderr)")
            }
        }
    }

    /// An export whose first entry is entry 1 but does not link to `genesis` continues no ledger's log:
    /// append refuses it under ChainLinkPolicy, and inspect — running that policy, not a check of its own
    /// that only compared entries with each other — refuses it under the same name.
    @Test func inspectRefusesWhatTheChainLinkPolicyRefuses() throws {
        let scenario = LedgerScenario()
        scenario.append([scenario.file(scenario.mandate())], at: "2026-08-09T00:00:00Z")
        let unlinked = try WriteLogEntry(
            sequence: 1, recordedAt: "2026-08-10T00:00:00Z", deviceBinding: "enrollment:device-1",
            authorizedBy: "reconciliation", caseOpen: false, banned: false, outcome: "ok",
            previousHash: String(repeating: "b", count: 64))
        let export = scenario.file(JSONObject([("entries", .array([.object(unlinked.json)]))]))
        let appended = CLI.run(
            ["append", scenario.ledger, "--signing-key", scenario.signer, "--at", "2026-08-10T01:00:00Z", export])
        #expect(appended.status == 65, "\(appended.stderr)")
        #expect(appended.stderr.contains("ChainLinkPolicy"), "\(appended.stderr)")
        let inspected = CLI.run(["inspect", export, "--json"])
        #expect(inspected.status == 1, "\(inspected.stdout)")
        #expect(inspected.stdout.contains(#""policy":"ChainLinkPolicy""#), "\(inspected.stdout)")
    }

    /// A bare verdict's signature needs its manifest: inspect says so instead of calling it clean.
    @Test func whatCannotBeCheckedIsSaid() throws {
        let scratch = ScratchDirectory()
        let path = scratch.path("verdict.json")
        try Data(Vectors.bytes("reference/derived-ban-verdict.json")).write(to: URL(fileURLWithPath: path))
        let result = CLI.run(["inspect", path])
        #expect(result.status == 0)
        #expect(
            result.stdout.contains(
                "not checked:      the operator signature: give the manifest it names with --manifest FILE"))
        #expect(result.stdout.contains("not checked:      verdict validation: give --mandate FILE and --at TIME"))
    }
}
