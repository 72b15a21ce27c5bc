import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier
@testable import LedgerWriter

/// Each policy judged on its own. A vector adds files in one commit on the good fixture ledger's
/// tip (built beside the branch, loaded as `verify` loads it) and calls one policy's `evaluate` with the
/// replay state at the tip; the findings' reasons must be exactly the vector's.
@Suite("Policies, one at a time")
struct PolicyUnitTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let policy: any LedgerPolicy
        let name: String
        /// Files the commit adds (path, bytes), given the good ledger's last entry.
        let files: @Sendable (WriteLogEntry) -> [(String, [UInt8])]
        var message: String?
        /// The findings' reasons, exactly; empty: the policy accepts the commit.
        let reasons: [String]
        var testDescription: String { "\(policy.name): \(name)" }
    }

    static let mandates = FixtureLedger.mandates
    static let verdicts = FixtureLedger.verdicts.map { try! Verdict(json: $0) }

    static func stored(_ record: some StoredRecord) -> (String, [UInt8]) {
        (LedgerLayout.recordPath(of: record, batch: TamperCorpus.newBatch), record.storedBytes)
    }

    static func entryFile(_ entry: WriteLogEntry) -> (String, [UInt8]) {
        (LedgerLayout.logEntryPath(entry.sequence), CanonicalJSON.encode(entry.json))
    }

    static func mandate(_ binding: String, edit: @escaping (inout JSONObject) -> Void = { _ in }) -> JSONObject {
        FixtureRecords.mandate(
            user: FixtureLedger.users[0], interface: FixtureLedger.interface, authority: FixtureLedger.authority,
            classes: ["csam"], deviceBinding: binding, acceptedAt: "2026-08-12T02:00:10Z", edit: edit)
    }

    static let vectors: [Vector] = [
        Vector(
            policy: BatchFolderPolicy(), name: "records in the next batch",
            files: { _ in [stored(try! Mandate(json: mandate("enrollment:device-5")))] }, reasons: []),
        Vector(
            policy: BatchFolderPolicy(), name: "a record in an earlier batch",
            files: { _ in
                let mandate = try! Mandate(json: mandate("enrollment:device-5"))
                return [(LedgerLayout.recordPath(of: mandate, batch: 3), mandate.storedBytes)]
            },
            reasons: [
                "adds to batch 3, which an earlier commit published; this commit's records belong in batch 4 "
                    + "(batches/0000000/0000000004)"
            ]),
        Vector(
            policy: BatchFolderPolicy(), name: "a batch skipped",
            files: { _ in
                let mandate = try! Mandate(json: mandate("enrollment:device-5"))
                return [(LedgerLayout.recordPath(of: mandate, batch: 6), mandate.storedBytes)]
            },
            reasons: ["opens batch 6 where the next batch is 4 (batches/0000000/0000000004)"]),
        Vector(
            policy: AppendOnlyPolicy(), name: "a mandate stored again",
            files: { _ in [stored(mandates[1])] },
            reasons: [
                "published again: batch 2 already holds it (\(LedgerLayout.recordPath(of: mandates[1], batch: 2)))"
            ]),
        Vector(
            policy: ChainLinkPolicy(), name: "the next entry",
            files: { last in [entryFile(TamperCorpus.write(7, after: last))] }, reasons: []),
        Vector(
            policy: ChainLinkPolicy(), name: "a gap",
            files: { last in [entryFile(TamperCorpus.write(8, after: last))] },
            reasons: ["expected sequence 7 next; the log has a gap or a reordering"]),
        Vector(
            policy: MandateScopePolicy(), name: "a write for an unmandated binding",
            files: { last in [entryFile(TamperCorpus.write(7, after: last, binding: "enrollment:nobody"))] },
            reasons: ["a write to device binding enrollment:nobody, which no mandate in the ledger names"]),
        Vector(
            policy: MandateScopePolicy(), name: "a new mandate makes its binding writable",
            files: { last in
                let mandate = mandate("enrollment:device-5")
                return [
                    stored(try! Mandate(json: mandate)),
                    entryFile(TamperCorpus.write(7, after: last, binding: "enrollment:device-5", caseOpen: false)),
                ]
            }, reasons: []),
        Vector(
            policy: AccountScopePolicy(), name: "an Android writer in an Apple ledger",
            files: { last in [entryFile(TamperCorpus.write(7, after: last, fieldsWritten: "{}"))] },
            reasons: ["a write by a non-DeviceCheck writer (fieldsWritten) in an Apple account's ledger"]),
        Vector(
            policy: MandateSignaturePolicy(), name: "a missing countersignature",
            files: { _ in
                let mandate = FixtureRecords.mandate(
                    user: FixtureLedger.users[0], interface: FixtureLedger.interface,
                    authority: FixtureLedger.authority, classes: ["csam"], deviceBinding: "enrollment:device-6",
                    acceptedAt: "2026-08-12T02:00:10Z", countersign: false)
                return [
                    stored(try! Mandate(json: mandate))
                ]
            }, reasons: ["the interface countersignature is missing"]),
        Vector(
            policy: ContentAddressPolicy(), name: "a mandate under another name",
            files: { _ in
                [
                    (
                        LedgerLayout.recordPath(
                            Mandate.self, ContentAddress(hashing: [1]), batch: TamperCorpus.newBatch),
                        CanonicalJSON.encode(mandate("enrollment:device-7"))
                    )
                ]
            },
            reasons: [
                "named \(ContentAddress(hashing: [1]).hex) but its content address is \(try! Mandate(json: mandate("enrollment:device-7")).ref.hex)"
            ]),
        Vector(
            policy: RecordSchemaPolicy(), name: "a verdict that is not JSON",
            files: { _ in
                [
                    (
                        LedgerLayout.recordPath(
                            Verdict.self, ContentAddress(hashing: [2]), batch: TamperCorpus.newBatch),
                        Array("nope".utf8)
                    )
                ]
            },
            reasons: ["notAnObject: the top-level value must be a JSON object"]),
        Vector(
            policy: ReceiptPolicy(), name: "a receipt for no verdict",
            files: { _ in
                let receipt = VerdictReceipt(
                    verdictRef: ContentAddress(hashing: [3]), status: .queued,
                    receivedAt: Instant.parse("2026-08-12T02:00:30Z")!)
                return [stored(receipt)]
            }, reasons: ["names a verdict the ledger does not hold"]),
        Vector(
            policy: TreeWhitelistPolicy(), name: "a stray file",
            files: { _ in [("notes.txt", Array("hello".utf8))] }, reasons: ["not a path the ledger format allows"]),
        Vector(
            policy: WriteReplayPolicy(), name: "a write the rules give",
            files: { last in [entryFile(TamperCorpus.write(7, after: last, by: verdicts[0].ref.hex, caseOpen: true))] },
            reasons: []),
        Vector(
            policy: LogTrailerPolicy(), name: "no trailers",
            files: { last in [entryFile(TamperCorpus.write(7, after: last))] },
            message: "append: no trailers\n",
            reasons: [
                "off the commit-message grammar (docs/FORMAT.md \"Commits\"): the commit message has no blank line "
                    + "before its trailers"
            ]),
    ]

    @Test(arguments: vectors)
    func policyJudgesItsVector(_ vector: Vector) throws {
        let scratch = ScratchDirectory()
        let (step, state) = try Self.step(scratch, vector)
        let reasons = vector.policy.evaluate(step, state: state).map(\.reason)
        #expect(reasons == vector.reasons)
    }

    /// The commit of `vector`'s files on the good ledger's tip, loaded as verify loads it, and the state at the tip.
    static func step(_ scratch: borrowing ScratchDirectory, _ vector: Vector) throws -> (CommitStep, ReplayState) {
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let surgeon = try Surgeon(path: ledger, keys: [FixtureLedger.signer1, FixtureLedger.signer2])
        let tip = surgeon.tip
        let tipInfo = surgeon.info(tip)
        let last = TamperCorpus.entry(surgeon, 6)
        let files = vector.files(last)
        let tree = try surgeon.repository.rawUpdatedTree(
            base: tipInfo.tree, edits: files.map { .upsert(path: $0.0, id: surgeon.blob($0.1), mode: 0o100644) })
        let entries = files.compactMap { try? WriteLogEntry(json: CanonicalJSON.parse($0.1)) }
        let position = LogPosition(size: 6, head: last.entryHash).advanced(by: entries)
        let message =
            vector.message
            ?? "append: vector\n\n\(LedgerTrailers(logSize: position.size, logHead: position.head).text)"
        let commit = surgeon.commit(
            tree: tree, parents: [tip], time: tipInfo.time + 60, message: message, signing: .key(FixtureLedger.signer2))
        var state = ReplayState(
            trustRoot: TrustRoot(keys: [FixtureLedger.signer1.publicKey]), now: Instant.parse("2026-12-01T00:00:00Z")!)
        var summary = VerificationSummary()
        try state.restore(&summary, at: tip, repository: surgeon.repository, checkpoint: nil)
        state.commitsSeen = 7
        let step = try CommitLoader(repository: surgeon.repository, clock: PhaseClock()).load(
            commit, index: state.commitsSeen, state: state)
        return (step, state)
    }
}
