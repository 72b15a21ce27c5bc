import Foundation
import LedgerTestSupport

@testable import LedgerFormat
import LedgerStore
@testable import LedgerWriter

/// A small, complete ledger built through the writer's library API from deterministic parties:
/// the good ledger the tamper corpus mutates (generated, never hand-edited).
///
/// History (oldest first): 0 init (profile, descriptor, signer 1) · 1 manifest + signature + three
/// mandates · 2 open-case, ban and dismiss verdicts with receipts · 3 write requests · 4 rotation adding
/// signer 2 · 5 writes signed by signer 2 · 6 rotation removing signer 1 · 7 writes signed by signer 2.
struct FixtureLedger {
    static let signer1 = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x01))!
    static let signer2 = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x02))!
    static let authority = FixtureAuthority()
    static let interface = FixtureInterface()
    static let users = (0..<3).map { Ed25519.PrivateKey(seed: FixtureSeed.labelled("user-\($0)"))! }
    static let bindings = (0..<3).map { "enrollment:device-\($0)" }

    static var mandates: [Mandate] {
        (0..<3).map { index in
            try! Mandate(
                json: FixtureRecords.mandate(
                    user: users[index], interface: interface, authority: authority,
                    classes: ["csam", "unsolicited-pornography"], deviceBinding: bindings[index],
                    acceptedAt: "2026-08-08T00:00:00Z"))
        }
    }

    static var verdicts: [JSONObject] {
        let mandates = self.mandates
        return [
            FixtureRecords.verdict(
                .openCase, caseId: "case-open", mandate: mandates[0], authority: authority,
                classId: "csam", decidedAt: "2026-08-10T00:00:00Z"),
            FixtureRecords.verdict(
                .ban, caseId: "case-ban", mandate: mandates[1], authority: authority,
                classId: "csam", decidedAt: "2026-08-10T00:00:00Z",
                extra: [
                    ("appealUrl", .string("https://authority.example/appeal")),
                    ("newHolderUrl", .string("https://authority.example/new-holder")),
                ]),
            FixtureRecords.verdict(
                .dismiss, caseId: "case-dismiss", mandate: mandates[2], authority: authority,
                classId: "csam", decidedAt: "2026-08-10T00:00:00Z"),
        ]
    }

    static func writes(_ rows: [(String, Int, String, Bool, Bool)]) -> BatchItem {
        let requests = rows.map { row in
            try! WriteRequest(
                json: JSONObject([
                    ("recordedAt", .string(row.0)), ("deviceBinding", .string(bindings[row.1])),
                    ("authorizedBy", .string(row.2)),
                    ("caseOpen", .bool(row.3)), ("banned", .bool(row.4)), ("outcome", .string("ok")),
                ]))
        }
        return BatchItem(source: "writes", content: .writeRequests(requests))
    }

    /// Builds the ledger at `path` and returns its commits, oldest first.
    @discardableResult
    static func build(at path: String) throws -> [ObjectID] {
        func at(_ text: String) -> Instant { Instant.parse(text)! }
        var commits: [ObjectID] = []
        let descriptor = LedgerDescriptor(
            ledgerId: "fixture-ledger", interface: WireString(interface.componentId),
            appleAccount: .init(teamId: "TEAM123456", apps: ["app.onym.ios"]),
            interfaceRootKey: interface.countersigningKey(for: authority.componentId).publicKey)
        commits.append(
            try Ledger.initialize(
                path: path, descriptor: descriptor, signingKey: signer1,
                at: at("2026-08-01T00:00:00Z"), profile: try EnforcementProfile(json: FixtureProfile.appleDeviceCheck)))
        func append(_ items: [BatchItem], _ time: String, _ key: Ed25519.PrivateKey) throws {
            commits.append(
                try requireCommit(
                    try Appender.with(path) {
                        try $0.append(items: items, signingKey: key, at: at(time), logKey: signer1)
                    }))
        }
        let manifest = authority.manifest()
        try append(
            [
                BatchItem(
                    source: "manifest",
                    content: .manifest(
                        manifest,
                        detachedSignature: authority.operatorKey.signature(for: authority.manifestBytes)))
            ]
                + mandates.map { BatchItem(source: "mandate", content: .record($0)) }, "2026-08-09T00:00:00Z", signer1)
        try append(
            verdicts.map {
                BatchItem(
                    source: "verdict",
                    content: .submission(
                        try VerdictSubmission(
                            json: FixtureRecords.submission($0, authority: authority))))
            }, "2026-08-10T00:01:00Z", signer1)
        let verdictRefs = try verdicts.map { try Verdict(json: $0).ref.hex }
        try append(
            [
                writes([
                    ("2026-08-10T01:00:00Z", 0, verdictRefs[0], true, false),
                    ("2026-08-10T01:00:01Z", 1, verdictRefs[1], false, true),
                    ("2026-08-10T01:00:02Z", 2, verdictRefs[2], false, false),
                ])
            ], "2026-08-10T02:00:00Z", signer1)
        commits.append(
            try Appender.with(path) {
                try $0.rotateSigners(
                    signingKey: signer1, add: [signer2.publicKey], remove: [],
                    at: at("2026-08-11T00:00:00Z"))
            }!)
        try append(
            [writes([("2026-08-11T01:00:00Z", 0, verdictRefs[0], true, false)])], "2026-08-11T02:00:00Z", signer2)
        commits.append(
            try Appender.with(path) {
                try $0.rotateSigners(
                    signingKey: signer2, add: [], remove: [signer1.publicKey],
                    at: at("2026-08-12T00:00:00Z"), logKey: signer1)
            }!)
        try append(
            [
                writes([
                    ("2026-08-12T01:00:00Z", 1, verdictRefs[1], false, true),
                    ("2026-08-12T01:00:01Z", 2, verdictRefs[2], false, false),
                ])
            ], "2026-08-12T02:00:00Z", signer2)
        return commits
    }
}

/// Unwraps an append that must have made a commit.
func requireCommit(_ result: Ledger.AppendResult) throws -> ObjectID {
    guard let commit = result.commit else { throw FixtureError(description: "the append made no commit") }
    return commit
}

struct FixtureError: Error, CustomStringConvertible { let description: String }
