import Foundation
import Testing

@testable import LedgerFormat
import LedgerVerifier
@testable import LedgerWitness

/// The witness's checks in-process (docs/WITNESS.md, "Answers"): the request grammar both sides share, each
/// status in the spec's order, the memory written before the answer, check-and-write atomic per log, and a
/// cosignature never dated before the previous one.
@Suite("Transparency: the witness service")
struct WitnessServiceTests {
    static let origin = "example.com/log"
    static let logKey = Ed25519.PrivateKey(seed: [UInt8](repeating: 0x61, count: 32))!
    static let witnessKey = Ed25519.PrivateKey(seed: [UInt8](repeating: 0x62, count: 32))!
    static let leaves = (0..<40).map { Merkle.leafHash(Array("entry \($0)".utf8)) }
    static var logVerifier: NoteKey { NoteKey(name: origin, type: NoteKey.ed25519, publicKey: logKey.publicKey)! }

    /// A checkpoint of the first `size` leaves (or of `root`), with an extension line, signed by `signer`.
    static func checkpoint(
        _ size: Int, root: Merkle.Hash? = nil, origin: String = origin, signer: Ed25519.PrivateKey = logKey
    ) -> SignedNote {
        let root = root ?? Merkle.root(leaves[..<size])
        let text = "\(origin)\n\(size)\n\(Base64.encode(root.bytes))\nan extension line\n"
        return SignedNote(text: text, signatures: [SignedNote.sign(text, name: origin, with: signer)!])
    }

    static func body(_ old: Int, _ note: SignedNote, proof: [Merkle.Hash]? = nil) -> [UInt8] {
        let size = CheckpointBody(text: note.text)!.size
        let hashes = proof ?? Merkle.consistencyProof(oldSize: old, leaves: leaves[..<size])
        return Array(
            ("old \(old)\n" + hashes.map { Base64.encode($0.bytes) + "\n" }.joined() + "\n" + note.formatted).utf8)
    }

    final class Clock: @unchecked Sendable {
        var now: Int64 = 1_800_000_000
    }

    static func service(state: String, clock: Clock = Clock()) throws -> WitnessService {
        try WitnessService(
            name: "witness.example", signer: witnessKey, logKeys: [(origin, logVerifier)], stateRoot: state,
            rateLimit: nil, clock: { clock.now })
    }

    static func status(_ result: Result<SignedNote.Signature, WitnessRefusal>) -> Int {
        switch result {
        case .success: 200
        case .failure(let refusal): refusal.status
        }
    }

    @Test func theRequestBodyRoundTripsAndItsGrammarIsEnforced() throws {
        let note = Self.checkpoint(7)
        let request = try AddCheckpointRequest(parsing: Self.body(3, note))
        #expect(request.oldSize == 3)
        #expect(request.checkpoint.size == 7)
        #expect(request.checkpoint.text.hasSuffix("an extension line\n"))
        #expect(Array(request.body.utf8) == Self.body(3, note))
        let text = note.formatted
        let refused: [String] = [
            "old 03\n\n" + text, "old -1\n\n" + text, "old 3\r\n\n" + text, "old 3\n" + text, "old 3\n\n",
            "old 3\n" + String(repeating: Base64.encode([UInt8](repeating: 0, count: 32)) + "\n", count: 64)
                + "\n" + text,
            "old 3\nAAAA\n\n" + text, "old 3\n\n" + note.text + "\n",
            "old 3\n\nexample.com/log\n07\n\(Base64.encode(Merkle.emptyRoot.bytes))\n\n" + note.signatures[0].line,
        ]
        for body in refused {
            #expect(throws: WitnessRefusal.self, "\(body.prefix(60))") {
                _ = try AddCheckpointRequest(parsing: Array(body.utf8))
            }
        }
        let maxProof =
            "old 3\n" + String(repeating: Base64.encode([UInt8](repeating: 0, count: 32)) + "\n", count: 63) + "\n"
            + text
        #expect(try AddCheckpointRequest(parsing: Array(maxProof.utf8)).proof.count == 63)
    }

    @Test func eachStatusInTheSpecsOrderAndTheMemoryWrittenBeforeTheAnswer() throws {
        let scratch = ScratchDirectory()
        let service = try Self.service(state: scratch.path("state"))
        let memoryPath = WitnessMemory.path(stateRoot: scratch.path("state"), origin: Self.origin, key: service.key)
        let stranger = Ed25519.PrivateKey(seed: [UInt8](repeating: 0x63, count: 32))!
        #expect(Self.status(service.addCheckpoint(Array("old 0\n".utf8))) == 400)
        #expect(Self.status(service.addCheckpoint(Self.body(0, Self.checkpoint(3, origin: "other.example")))) == 404)
        #expect(Self.status(service.addCheckpoint(Self.body(0, Self.checkpoint(3, signer: stranger)))) == 403)
        var forged = Self.checkpoint(3)
        forged.signatures.append(SignedNote.sign(forged.text + "x", name: Self.origin, with: Self.logKey)!)
        #expect(Self.status(service.addCheckpoint(Self.body(0, forged))) == 403)  // a trusted key's line fails
        #expect(Self.status(service.addCheckpoint(Self.body(4, Self.checkpoint(3), proof: []))) == 400)
        #expect(Self.status(service.addCheckpoint(Self.body(0, Self.checkpoint(0, root: Self.leaves[0])))) == 422)
        #expect(Self.status(service.addCheckpoint(Self.body(2, Self.checkpoint(3)))) == 409)
        #expect(Self.status(service.addCheckpoint(Self.body(0, Self.checkpoint(3), proof: [Self.leaves[0]]))) == 422)
        #expect(try WitnessMemory.load(memoryPath) == nil)  // nothing cosigned, nothing remembered

        let first = service.addCheckpoint(Self.body(0, Self.checkpoint(3)))
        let line = try first.get()
        #expect(
            Cosignature.verifiedTime(of: SignedNote(text: Self.checkpoint(3).text, signatures: [line]), by: service.key)
                == 1_800_000_000)
        #expect(try WitnessMemory.load(memoryPath)?.size == 3)
        guard case .failure(let conflict) = service.addCheckpoint(Self.body(0, Self.checkpoint(9))) else {
            Issue.record("old 0 after a cosignature is not refused")
            return
        }
        #expect(conflict.status == 409 && conflict.latestSize == 3)
        var badProof = Merkle.consistencyProof(oldSize: 3, leaves: Self.leaves[..<9])
        badProof[0] = Self.leaves[30]
        #expect(Self.status(service.addCheckpoint(Self.body(3, Self.checkpoint(9), proof: badProof))) == 422)
        #expect(Self.status(service.addCheckpoint(Self.body(3, Self.checkpoint(3, root: Self.leaves[5])))) == 422)
        #expect(Self.status(service.addCheckpoint(Self.body(3, Self.checkpoint(9)))) == 200)
        #expect(try WitnessMemory.load(memoryPath)?.size == 9)
        // A restarted service answers from the memory on disk.
        let restarted = try Self.service(state: scratch.path("state"))
        #expect(Self.status(restarted.addCheckpoint(Self.body(3, Self.checkpoint(12)))) == 409)
    }

    /// docs/DECISIONS.md: the timestamp never goes back, even when the clock does.
    /// Origins are told apart by their bytes (docs/FORMAT.md, "Strings compare by bytes"), as Go's witnesses
    /// tell them: a checkpoint of `example.org/\u{212A}`, signed by the log key of `example.org/K` under that
    /// log's name, is of no log the witness knows (404), not one to cosign.
    @Test func aCheckpointOfAnEquivalentOriginIsOfNoKnownLog() throws {
        let scratch = ScratchDirectory()
        let plain = "example.org/K"
        let key = try #require(NoteKey(name: plain, type: NoteKey.ed25519, publicKey: Self.logKey.publicKey))
        let service = try WitnessService(
            name: "witness.example", signer: Self.witnessKey, logKeys: [(plain, key)], stateRoot: scratch.path("state"),
            rateLimit: nil, clock: { 1_800_000_000 })
        func checkpoint(origin: String) -> SignedNote {
            let text = "\(origin)\n3\n\(Base64.encode(Merkle.root(Self.leaves[..<3]).bytes))\n"
            return SignedNote(text: text, signatures: [SignedNote.sign(text, name: plain, with: Self.logKey)!])
        }
        #expect(Self.status(service.addCheckpoint(Self.body(0, checkpoint(origin: "example.org/\u{212A}")))) == 404)
        #expect(Self.status(service.addCheckpoint(Self.body(0, checkpoint(origin: plain)))) == 200)
    }

    @Test func aCosignatureIsNeverDatedBeforeThePreviousOne() throws {
        let scratch = ScratchDirectory()
        let clock = Clock()
        let service = try Self.service(state: scratch.path("state"), clock: clock)
        _ = try service.addCheckpoint(Self.body(0, Self.checkpoint(3))).get()
        clock.now -= 3_600
        let later = try service.addCheckpoint(Self.body(3, Self.checkpoint(9))).get()
        let time = Cosignature.verifiedTime(
            of: SignedNote(text: Self.checkpoint(9).text, signatures: [later]), by: service.key)
        #expect(time == 1_800_000_000)
    }

    /// The spec's race: checking the old size and writing the new head are one step per log. Sixteen
    /// requests at once, all from old 0: exactly one is cosigned, every other is told the size it won with.
    @Test func concurrentRequestsForOneLogCannotBothWin() throws {
        let scratch = ScratchDirectory()
        let service = try Self.service(state: scratch.path("state"))
        let statuses = Statuses()
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            statuses.add(Self.status(service.addCheckpoint(Self.body(0, Self.checkpoint(index + 1)))))
        }
        #expect(statuses.all.filter { $0 == 200 }.count == 1)
        #expect(statuses.all.filter { $0 == 409 }.count == 15)
    }

    final class Statuses: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Int] = []
        func add(_ value: Int) {
            lock.lock()
            values.append(value)
            lock.unlock()
        }
        var all: [Int] {
            lock.lock()
            defer { lock.unlock() }
            return values
        }
    }
}
