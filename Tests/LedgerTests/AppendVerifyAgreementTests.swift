import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier
@testable import LedgerWriter

/// One rulebook. Every tamper-corpus attack that can be expressed as input to `append` is
/// refused by `append` with the policy `verify` names for it (the policy comes from the corpus, not from
/// this file); an attack on a write the backend really made is logged and reported with that policy.
/// Attacks on what the writer lays out itself (git objects, trees, commits, history, trailers) cannot be
/// expressed as input; the test keeps that list honest by policy.
@Suite("append and verify agree")
struct AppendVerifyAgreementTests {
    /// What happens to an attack given to `append`.
    enum Expected { case refused, loggedWithConductFinding }

    struct Case: Sendable, CustomTestStringConvertible {
        let attack: String
        let expected: Expected
        /// Input files as `append` reads them: (name, bytes, detached signature).
        let inputs: @Sendable () -> [(String, [UInt8], [UInt8]?)]
        var at = "2026-08-12T03:00:00Z"
        var testDescription: String { attack }
    }

    /// Policies about what the writer itself lays out: no input to `append` can produce these.
    static let writerLaidOut: Set<String> = [
        "GitObjectPolicy", "RepositoryPolicy", "CommitHeaderPolicy", "HistoryPolicy", "CommitSignaturePolicy",
        "TreeWhitelistPolicy", "DescriptorPolicy", "AppendOnlyPolicy", "ContentAddressPolicy", "CanonicalFormPolicy",
        "LogTrailerPolicy", "RecordLimitsPolicy", "BatchFolderPolicy", "CheckpointPolicy",
        "CosignaturePolicy",
    ]

    /// Attacks under other policies that rewrite history rather than add to it, or that the writer's own
    /// planning never produces.
    static let notInput: [String: String] = [
        "detached signature for a manifest the ledger lacks": "a .sig is only read beside its manifest",
        "verdict whose consented manifest the ledger lacks": "removes a published manifest from history",
        "mandate removed from history": "removes a published mandate from history",
        "verdict without a receipt": "the writer receipts every verdict it stores",
        "log entry removed in the middle": "removes a published entry from history",
        "swapped log entries": "rewrites published entries",
        "entry hash recomputed but next link broken": "rewrites a published entry",
        "oversized record": "an input over the record limit is refused unread (RecordLimitsPolicy's limit)",
        "a write that follows a stored invalid verdict":
            "append refuses an invalid verdict at intake (VerdictValidationPolicy), so no input stores one",
        "ledger id with a zero-width space": "the descriptor is written by init, which refuses it (InitRulesTests)",
        "an Apple team id that is not one": "the descriptor is written by init, which refuses it (InitRulesTests)",
    ]

    /// The good ledger's log head (6 entries), which an export continuing it links to.
    static let goodHead: String = {
        let repository = try! Repository.open(TamperCorpusTests.good)
        let tip = try! repository.referenceTarget(LedgerLayout.branch)!
        return LedgerTrailers(message: try! repository.commit(tip).message)!.logHead
    }()
    static let mandates = FixtureLedger.mandates
    static let verdicts = FixtureLedger.verdicts.map { try! Verdict(json: $0) }

    static func json(_ object: JSONObject) -> [UInt8] { CanonicalJSON.encode(object) }
    static func file(_ name: String, _ object: JSONObject) -> (String, [UInt8], [UInt8]?) { (name, json(object), nil) }

    static func mandate(
        _ binding: String, countersign: Bool = true, epoch: UInt32? = nil,
        edit: @escaping (inout JSONObject) -> Void = { _ in }
    )
        -> JSONObject
    {
        if let epoch {
            return FixtureRecords.mandate(
                user: FixtureLedger.users[0], interface: FixtureLedger.interface, authority: FixtureLedger.authority,
                classes: ["csam"], deviceBinding: binding, acceptedAt: "2026-08-12T02:10:00Z", epoch: epoch)
        }
        return FixtureRecords.mandate(
            user: FixtureLedger.users[0], interface: FixtureLedger.interface, authority: FixtureLedger.authority,
            classes: ["csam"], deviceBinding: binding, acceptedAt: "2026-08-12T02:10:00Z", countersign: countersign,
            edit: edit)
    }

    /// A lawful new verdict on the first device (a dismissal of its open case), decided at `decidedAt`.
    static func dismissal(decidedAt: String = "2026-08-12T02:20:00Z") -> JSONObject {
        FixtureRecords.verdict(
            .dismiss, caseId: "case-open", mandate: mandates[0], authority: FixtureLedger.authority, classId: "csam",
            decidedAt: decidedAt)
    }

    /// A new dismissal with an explicit receipt, as two input files.
    static func verdictWithReceipt(decidedAt: String, _ status: VerdictReceipt.Status, receivedAt: String)
        -> [(String, [UInt8], [UInt8]?)]
    {
        let verdict = dismissal(decidedAt: decidedAt)
        return [file("verdict.json", verdict), file("receipt.json", receipt(verdict, status, at: receivedAt))]
    }

    static func receipt(_ verdict: JSONObject, _ status: VerdictReceipt.Status, at time: String) -> JSONObject {
        VerdictReceipt(verdictRef: try! Verdict(json: verdict).ref, status: status, receivedAt: Instant.parse(time)!)
            .json
    }

    /// One write request line (NDJSON).
    static func write(
        binding: Int = 0, by: String = "reconciliation", caseOpen: Bool = true, banned: Bool = false,
        outcome: String = "ok", at time: String = "2026-08-12T02:30:00Z", fieldsWritten: String? = nil
    ) -> (String, [UInt8], [UInt8]?) {
        var object = JSONObject([
            ("recordedAt", .string(time)), ("deviceBinding", .string(FixtureLedger.bindings[binding])),
            ("authorizedBy", .string(by)), ("caseOpen", .bool(caseOpen)), ("banned", .bool(banned)),
            ("outcome", .string(outcome)),
        ])
        if let fieldsWritten { object.set("fieldsWritten", .string(fieldsWritten)) }
        return ("writes.ndjson", json(object) + [0x0a], nil)
    }

    /// An audit export continuing the good ledger's log (6 entries) with `entries`.
    static func export(_ entries: [JSONObject]) -> (String, [UInt8], [UInt8]?) {
        file("export.json", JSONObject([("entries", .array(entries.map { .object($0) }))]))
    }

    static func entry(_ sequence: Int64, previous: String, entryHash: String? = nil) -> JSONObject {
        var object = try! WriteLogEntry(
            sequence: sequence, recordedAt: "2026-08-12T02:30:00Z",
            deviceBinding: WireString(FixtureLedger.bindings[0]),
            authorizedBy: "reconciliation", caseOpen: true, banned: false, outcome: "ok", previousHash: previous
        ).json
        if let entryHash { object.set("entryHash", .string(entryHash)) }
        return object
    }

    /// A status attempt the interface signed at `time`.
    /// A grant and its redemptions on device `binding`, as `append` reads them (the corpus's grant attacks).
    static func redeemed(
        _ grant: JSONObject, binding: Int = 1, at times: [String] = ["2026-08-12T02:00:20Z"]
    ) -> [(String, [UInt8], [UInt8]?)] {
        let to = try! Grant(json: grant).grantType == .recovery ? "enrollment:device-9" : nil
        return [file("grant.json", grant)]
            + times.enumerated().map { index, time in
                file(
                    "redemption-\(index).json",
                    FixtureRecords.redemption(
                        of: grant, mandateRef: mandates[binding].ref, from: FixtureLedger.bindings[binding], to: to,
                        redeemedAt: time))
            }
    }

    static func attempt(at time: String) -> (String, [UInt8], [UInt8]?) {
        file(
            "attempt.json",
            FixtureRecords.statusAttempt(
                interface: FixtureLedger.interface, authority: FixtureLedger.authority.componentId, attemptedAt: time))
    }

    static let cases: [Case] = [
        Case(attack: "a second receipt for a published verdict", expected: .refused) {
            [
                file(
                    "receipt.json",
                    VerdictReceipt(
                        verdictRef: verdicts[2].ref, status: .queued, receivedAt: Instant.parse("2026-08-12T03:00:00Z")!
                    ).json)
            ]
        },
        Case(attack: "a second manifest claims the authority's id with another key", expected: .refused) {
            [("manifest.json", FixtureAuthority(seed: FixtureSeed.repeated(0x0d)).manifestBytes, nil)]
        },
        Case(attack: "mandate with a forged user signature", expected: .refused) {
            var object = mandate("enrollment:device-5")
            if case .array(let signatures) = object["signatures"]! {
                object.set("signatures", .array([signatures[1], signatures[1]]))
            }
            return [file("mandate.json", object)]
        },
        Case(attack: "mandate missing its countersignature", expected: .refused) {
            [file("mandate.json", mandate("enrollment:device-7", countersign: false))]
        },
        Case(attack: "mandate countersigned by an epoch the descriptor does not list", expected: .refused) {
            [file("mandate.json", mandate("enrollment:device-8", epoch: 3))]
        },
        Case(attack: "mandate for another interface", expected: .refused) {
            [
                file(
                    "mandate.json",
                    mandate("enrollment:device-9") { $0.set("interface", .string("onym:component:other-app")) })
            ]
        },
        Case(attack: "record that is not JSON", expected: .refused) { [("verdict.json", Array("not json".utf8), nil)] },
        Case(attack: "mandate of an unknown version", expected: .refused) {
            var object = mandate("enrollment:device-6")
            object.set("mandateVersion", .integer(2))
            return [file("mandate.json", object)]
        },
        Case(attack: "deep JSON", expected: .refused) {
            [
                (
                    "deep.json",
                    Array((String(repeating: "{\"a\":", count: 200) + "1" + String(repeating: "}", count: 200)).utf8),
                    nil
                )
            ]
        },
        Case(attack: "manifest with a bad detached signature", expected: .refused) {
            let other = FixtureAuthority(
                componentId: "onym:component:second-authority", seed: FixtureSeed.repeated(0x0c))
            return [("manifest.json", other.manifestBytes, [UInt8](repeating: 7, count: 64))]
        },
        Case(attack: "verdict signed by the wrong key", expected: .refused) {
            [file("verdict.json", FixtureAuthority(seed: FixtureSeed.repeated(0x0e)).sign(dismissal()))]
        },
        Case(attack: "verdict with shifted banExpires (re-signed)", expected: .refused) {
            var object = FixtureLedger.verdicts[1]
            object.set("banExpires", .string("2030-01-01T00:00:00Z"))
            object.set("caseId", .string("case-ban-2"))
            return [file("verdict.json", FixtureLedger.authority.sign(object))]
        },
        Case(attack: "verdict with shifted banExpires (not re-signed)", expected: .refused) {
            var object = dismissal()
            object.set("decidedAt", .string("2026-08-12T02:21:00Z"))
            return [file("verdict.json", object)]
        },
        Case(attack: "verdict for a mandate the ledger lacks", expected: .refused) {
            let stray = try! Mandate(json: mandate("enrollment:ghost"))
            return [
                file(
                    "verdict.json",
                    FixtureRecords.verdict(
                        .dismiss, caseId: "c", mandate: stray, authority: FixtureLedger.authority, classId: "csam",
                        decidedAt: "2026-08-12T02:20:00Z"))
            ]
        },
        Case(attack: "verdict received before it was decided", expected: .refused) {
            verdictWithReceipt(decidedAt: "2026-08-12T02:40:00Z", .queued, receivedAt: "2026-08-12T02:30:00Z")
        },
        Case(attack: "receipt for a verdict that does not exist", expected: .refused) {
            [
                file(
                    "receipt.json",
                    VerdictReceipt(
                        verdictRef: ContentAddress(hashing: [4]), status: .queued,
                        receivedAt: Instant.parse("2026-08-12T02:30:00Z")!
                    ).json)
            ]
        },
        Case(attack: "receipt with the wrong status", expected: .refused) {
            verdictWithReceipt(decidedAt: "2026-08-12T02:20:00Z", .stored, receivedAt: "2026-08-12T02:30:00Z")
        },
        Case(attack: "receipt dated after its commit", expected: .refused) {
            verdictWithReceipt(decidedAt: "2026-08-12T02:20:00Z", .queued, receivedAt: "2026-08-20T00:00:00Z")
        },
        Case(attack: "revocation without justifying evidence", expected: .refused) {
            [
                file(
                    "revocation.json",
                    FixtureRecords.revocation(
                        interface: FixtureLedger.interface, authority: FixtureLedger.authority.componentId,
                        trigger: "authority-compromise", effectiveAt: "2026-08-12T00:00:00Z",
                        determinedAt: "2026-08-12T02:30:00Z", evidence: [ContentAddress(hashing: [7])]))
            ]
        },
        Case(attack: "status attempt signed by a stranger", expected: .refused) {
            [
                file(
                    "attempt.json",
                    FixtureRecords.signed(
                        FixtureRecords.statusAttempt(
                            interface: FixtureLedger.interface, authority: FixtureLedger.authority.componentId,
                            attemptedAt: "2026-08-12T02:30:00Z"), with: TamperCorpus.stranger))
            ]
        },
        Case(attack: "compromise report signed by a stranger", expected: .refused) {
            [
                file(
                    "report.json",
                    FixtureRecords.signed(
                        FixtureRecords.compromiseReport(
                            authority: FixtureLedger.authority, compromisedAt: "2026-08-11T00:00:00Z",
                            reportedAt: "2026-08-12T02:30:00Z"), with: TamperCorpus.stranger))
            ]
        },
        Case(
            attack: "commit dated before its parent", expected: .refused, inputs: { [write()] },
            at: "2026-08-11T00:00:00Z"),
        Case(
            attack: "commit dated 1970", expected: .refused, inputs: { [write(at: "1970-01-01T00:00:00Z")] },
            at: "1970-01-01T00:00:00Z"),
        Case(attack: "write recorded before the previous commit", expected: .refused) {
            [write(at: "2026-08-11T00:00:00Z")]
        },
        Case(attack: "write recorded after its commit", expected: .refused) { [write(at: "2027-06-01T00:00:00Z")] },
        Case(attack: "status attempt dated before the ledger existed", expected: .refused) {
            [attempt(at: "1970-01-01T00:00:00Z")]
        },
        Case(attack: "status attempt dated in the future", expected: .refused) {
            [attempt(at: "2027-01-01T00:00:00Z")]
        },
        Case(attack: "forged chain hash", expected: .refused) {
            [export([entry(7, previous: goodHead, entryHash: String(repeating: "b", count: 64))])]
        },
        Case(attack: "sequence gap", expected: .refused) {
            [export([entry(8, previous: goodHead)])]
        },
        Case(attack: "entry not linked to the head", expected: .refused) {
            [export([entry(7, previous: String(repeating: "a", count: 64))])]
        },
        Case(attack: "write for a device binding no mandate names", expected: .refused) {
            var line = write()
            line.1 = Array(
                String(decoding: line.1, as: UTF8.self).replacingOccurrences(
                    of: FixtureLedger.bindings[0], with: "enrollment:nobody"
                ).utf8)
            return [line]
        },
        Case(attack: "write for an equivalent spelling of a mandated binding", expected: .refused) {
            var line = write(caseOpen: false)
            line.1 = Array(
                String(decoding: line.1, as: UTF8.self).replacingOccurrences(
                    of: FixtureLedger.bindings[0], with: "enrollment:cafe\u{301}"
                ).utf8)
            return [file("mandate.json", mandate("enrollment:caf\u{E9}")), line]
        },
        Case(attack: "entry with an invalid outcome", expected: .refused) { [write(outcome: "maybe")] },
        Case(attack: "write by an Android writer in an Apple ledger", expected: .loggedWithConductFinding) {
            [write(fieldsWritten: #"{"bitFirst":true}"#)]
        },
        Case(attack: "forged write: correct chain, wrong bits", expected: .loggedWithConductFinding) {
            [write(by: verdicts[0].ref.hex, caseOpen: false, banned: true)]
        },
        Case(attack: "write with the wrong authorizedBy", expected: .loggedWithConductFinding) {
            [write(by: "reconciliation", caseOpen: true, banned: false)]
        },
        Case(attack: "ban written on a device with no ban verdict", expected: .loggedWithConductFinding) {
            [write(binding: 2, by: verdicts[1].ref.hex, caseOpen: false, banned: true)]
        },
        Case(attack: "a write authorized by a grant never redeemed", expected: .loggedWithConductFinding) {
            let grant = TamperCorpus.grant(.unban)
            let label = GrantRedemption.labelPrefix + (try! Grant(json: grant)).ref.hex
            return [file("grant.json", grant), write(binding: 1, by: label, caseOpen: false, banned: false)]
        },
        Case(attack: "a redeemed grant signed by a stranger", expected: .refused) {
            redeemed(TamperCorpus.grant(.unban, signer: TamperCorpus.stranger))
        },
        Case(attack: "a grant redeemed after its 30 days", expected: .refused) {
            redeemed(TamperCorpus.grant(.unban, issuedAt: "2026-07-13T02:00:19Z"))
        },
        Case(attack: "a grant redeemed twice", expected: .refused) {
            redeemed(TamperCorpus.grant(.unban), at: ["2026-08-12T02:00:20Z", "2026-08-12T02:00:25Z"])
        },
        Case(attack: "an unban for an identity no ban of the case accuses", expected: .refused) {
            redeemed(TamperCorpus.grant(.unban, grantee: 0), binding: 0)
        },
        Case(attack: "a recovery redeemed with another identity's mandate", expected: .refused) {
            redeemed(TamperCorpus.grant(.recovery, grantee: 1), binding: 2)
        },
        Case(attack: "a grant without its grantType", expected: .refused) {
            var grant = TamperCorpus.grant(.unban)
            grant.remove("grantType")
            return [file("grant.json", grant)]
        },
        Case(attack: "failed write of unauthorized bits", expected: .loggedWithConductFinding) {
            [write(binding: 1, by: "expiry", caseOpen: false, banned: false, outcome: "failed: mark_write_failed: 503")]
        },
    ]

    @Test func everyAttackIsEitherInputOrLaidOutByTheWriter() {
        let covered = Set(Self.cases.map(\.attack))
        for attack in TamperCorpus.attacks where !attack.accepted && !Self.writerLaidOut.contains(attack.policy) {
            #expect(
                covered.contains(attack.name) || Self.notInput[attack.name] != nil,
                "\(attack.name) (\(attack.policy)): add it to the table, or say why no input expresses it")
        }
        for name in covered {
            #expect(TamperCorpus.attacks.contains { $0.name == name }, "\(name) is not in the corpus")
        }
    }

    @Test(arguments: cases)
    func appendJudgesWithVerifysPolicy(_ testCase: Case) throws {
        let attack = try #require(TamperCorpus.attacks.first { $0.name == testCase.attack })
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let tip = try Repository.open(ledger).referenceTarget(LedgerLayout.branch)
        let at = Instant.parse(testCase.at)!
        var items: [BatchItem] = []
        do {
            for (name, bytes, signature) in testCase.inputs() {
                items.append(try BatchImporter.read(bytes, source: name, detachedSignature: signature))
            }
            let appender = try Appender.open(ledger)
            defer { appender.close() }
            let result = try appender.append(
                items: items, signingKey: FixtureLedger.signer2, at: at, logKey: FixtureLedger.signer1)
            #expect(testCase.expected == .loggedWithConductFinding, "\(attack.name): append accepted it")
            #expect(
                result.conductFindings.map(\.policy).contains(attack.policy),
                "\(attack.name): \(result.conductFindings)")
            #expect(result.commit != nil)
        } catch {
            #expect(testCase.expected == .refused, "\(attack.name): \(error)")
            let policies = error.findings.isEmpty ? [error.rule] : error.findings.map(\.policy)
            #expect(policies.contains(attack.policy), "\(attack.name): verify says \(attack.policy); append: \(error)")
            #expect(try Repository.open(ledger).referenceTarget(LedgerLayout.branch) == tip, "the ledger moved")
        }
    }
}
