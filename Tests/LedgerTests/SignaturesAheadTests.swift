import Foundation
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier

/// The verifier's reading thread checks record signatures ahead when the judging thread is behind
/// (docs/DECISIONS.md, "Record signatures are checked ahead, on the reading thread"): each verification is
/// kept by its exact key, signature and message (`Ed25519.Verifications`), and the judging thread finds it
/// there instead of verifying again — never an answer to another question.
@Suite("Record signatures checked ahead")
struct SignaturesAheadTests {
    static let key = Ed25519.PrivateKey(seed: [UInt8](repeating: 7, count: 32))!
    static let other = Ed25519.PrivateKey(seed: [UInt8](repeating: 8, count: 32))!

    /// Made under a record, a verification is kept with its answer and made once; the record's answer is
    /// given only for exactly that key, signature and message, and outside any record nothing is kept.
    @Test func aVerificationIsKeptAndFoundOnlyForTheSameKeySignatureAndMessage() throws {
        let message = Array("the signed bytes".utf8)
        let signature = Self.key.signature(for: message)
        let verifications = Ed25519.Verifications()
        Ed25519.Verifications.$current.withValue(verifications) {
            #expect(Self.key.publicKey.isValidSignature(signature, for: message))
            #expect(Self.key.publicKey.isValidSignature(signature, for: message))
            #expect(!Self.other.publicKey.isValidSignature(signature, for: message))
        }
        #expect(verifications.count == 2 && verifications.answered == 1)

        // A record that says otherwise is believed for that verification alone: it is consulted, not
        // computed around, and the same signature over other bytes or under another key is verified.
        let planted = Ed25519.Verifications()
        planted.record(key: Self.key.publicKey.rawRepresentation, signature: signature, message: message, valid: false)
        Ed25519.Verifications.$current.withValue(planted) {
            #expect(!Self.key.publicKey.isValidSignature(signature, for: message))
            #expect(!Self.key.publicKey.isValidSignature(signature, for: message + [0]))
            #expect(!Self.other.publicKey.isValidSignature(signature, for: message))
        }
        #expect(planted.count == 3 && planted.answered == 1)
        #expect(Self.key.publicKey.isValidSignature(signature, for: message))
        #expect(verifications.count == 2 && planted.count == 3)
    }

    /// A record keeps at most 16 verifications (one checked under each of thousands of keys a hostile
    /// descriptor lists is made, not kept): the ones past that are verified and answered all the same.
    @Test func aRecordKeepsABoundedNumberOfVerifications() {
        let messages = (0..<40).map { Array("message \($0)".utf8) }
        let signatures = messages.map { Self.key.signature(for: $0) }
        let verifications = Ed25519.Verifications()
        Ed25519.Verifications.$current.withValue(verifications) {
            for (index, message) in messages.enumerated() {
                #expect(Self.key.publicKey.isValidSignature(signatures[index], for: message))
                #expect(!Self.key.publicKey.isValidSignature(signatures[(index + 1) % 40], for: message))
            }
        }
        #expect(verifications.count == Ed25519.Verifications.most)
    }

    /// Over the example ledger (every record kind, a manifest rotation, grants), commit by commit as the
    /// verifier goes: every file the reading thread checked ahead — mandates, and verdicts, whose manifest
    /// it guesses by the authority they name (it does not keep the mandates that pin it) — is judged with
    /// the statuses it would have without the check ahead, and without one verification more. (A
    /// redemption's grant signature needs the grantee's mandate: the judging thread verifies it.)
    @Test func theJudgingThreadMakesNoVerificationTheReadingThreadMade() throws {
        let trust = try TrustRoot.parse(String(contentsOfFile: ExampleLedgerTests.trust, encoding: .utf8))
        let repository = try Repository.open(LedgerSnapshotTests.gitDirectory)
        let loader = CommitLoader(repository: repository, clock: PhaseClock())
        let foresight = SignatureForesight(descriptor: nil)
        var state = ReplayState(trustRoot: trust, now: Instant.parse("2026-12-01T00:00:00Z")!)
        var checkedAhead = 0
        var kinds: Set<String> = []
        for (index, id) in CommitReadAheadTests.gitHistory().enumerated() {
            let ahead = try loader.read(id)
            let plain = try loader.read(id)
            foresight.learn(ahead.files)
            foresight.checkAhead(ahead.files)
            let made = ahead.files.map { $0.verifications?.count }
            let step = try loader.finish(ahead, index: index, state: state)
            let reference = try loader.finish(plain, index: index, state: state)
            for (file, (before, plainFile)) in zip(step.files, zip(made, reference.files)) {
                #expect(file.checks.signatures == plainFile.checks.signatures, "\(file.path)")
                guard let before, before > 0 else { continue }
                #expect(file.verifications?.count == before, "\(file.path): verified again")
                #expect(file.verifications?.answered ?? 0 >= file.checks.signaturesChecked, "\(file.path)")
                checkedAhead += 1
                if let record = file.storedRecord { kinds.insert(type(of: record).kindName) }
            }
            state.apply(reference)
        }
        #expect(checkedAhead > 50)
        #expect(kinds.isSuperset(of: ["mandate", "verdict"]), "\(kinds)")
    }
}
