import Foundation
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerWriter

/// Transparency end to end: the example ledger published as C2SP tiles reads in golang.org/x/mod's tlog client,
/// `prove` output checks with `check-proof` and with x/mod, publication is incremental and refuses a folder
/// from another history or holding a tile this log does not have.
@Suite("Transparency: publish, prove, check-proof")
struct TransparencyLedgerTests {
    static func logKey(_ ledger: String) throws -> String {
        let repository = try Repository.open(ledger)
        let tip = try #require(try repository.referenceTarget(LedgerLayout.branch))
        let descriptor = try LedgerDescriptor(
            json: CanonicalJSON.parse(try #require(try repository.blob(at: LedgerLayout.descriptorPath, inCommit: tip)))
        )
        return try #require(descriptor.log).description
    }

    static func run(_ arguments: [String], _ scratch: borrowing ScratchDirectory) -> (
        status: Int32, stdout: String, stderr: String
    ) {
        CLI.run(arguments + ["--state", scratch.path("state")])
    }

    @Test func thePublishedExampleReadsInXModsTlogClient() throws {
        let scratch = ScratchDirectory()
        let ledger = ExampleLedgerTests.copy(scratch)
        let site = scratch.path("site")
        let published = Self.run(["publish", ledger, site, "--trust", ExampleLedgerTests.trust, "--json"], scratch)
        #expect(published.status == 0, "\(published.stderr)")
        #expect(published.stdout.contains(#""previousSize":0"#))
        try Self.logKey(ledger).write(toFile: site + "/vkey", atomically: true, encoding: .utf8)
        // Inclusion proofs for a write entry and a verdict, and a consistency proof, from `prove`.
        var lines: [String] = []
        for record in ["log:151", "log:1", "ledger.json"] {
            let proved = CLI.run(["prove", ledger, record, "--state", scratch.path("state")])
            #expect(proved.status == 0, "\(proved.stderr)")
            let proof = try TlogProof(parsing: proved.stdout)
            lines.append(
                (["inclusion", String(proof.index), Base64.encode(proof.extra!)]
                    + proof.hashes.map { Base64.encode($0.bytes) })
                    .joined(separator: " "))
        }
        let consistency = CLI.run(["prove", ledger, "--consistency", "300", "--state", scratch.path("state")])
        #expect(consistency.status == 0, "\(consistency.stderr)")
        let body = consistency.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(body[0] == "old 300")
        let hashes = body.dropFirst().prefix { !$0.isEmpty }.map(String.init)
        let tiles = try Self.leafHashes(site)
        lines.append(
            (["consistency", "300", Base64.encode(Merkle.root(tiles[..<300]).bytes)] + hashes).joined(separator: " "))
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: site + "/proofs.txt", atomically: true, encoding: .utf8)
        // Between two checkpoints of the history: from size 100 to the checkpoint commit 150 carries.
        let middle = try Repository.open(ledger).history(
            from: try #require(
                try Repository.open(ledger).referenceTarget(LedgerLayout.branch)))[150]
        let between = CLI.run(["prove", ledger, "--consistency", "100", middle.hex, "--state", scratch.path("state")])
        #expect(between.status == 0, "\(between.stderr)")
        let parts = between.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let proofHashes = parts.dropFirst().prefix { !$0.isEmpty }.map {
            ContentAddress(bytes: Base64.decode(String($0))!)
        }
        let note = try SignedNote(parsing: parts.dropFirst(proofHashes.count + 2).joined(separator: "\n"))
        let newHead = try #require(TreeHead(text: note.text))
        #expect(newHead.size < tiles.count)
        #expect(
            Merkle.verifyConsistency(
                oldSize: 100, newSize: newHead.size, oldRoot: Merkle.root(tiles[..<100]), newRoot: newHead.root,
                proof: proofHashes))
        #expect(Merkle.root(tiles[..<newHead.size]) == newHead.root)
        let checked = TransparencyTests.runGoChecker(site, scratch: scratch)
        #expect(checked.status == 0, "\(checked.output)")
        #expect(checked.output.contains("ok tiles give the root for size"))
        #expect(checked.output.contains("ok entry bundles match the tiles"))
        #expect(checked.output.contains("ok consistency 300"))
    }

    /// The level-0 hashes of a publication folder's tiles, read back.
    static func leafHashes(_ site: String) throws -> [Merkle.Hash] {
        let checkpoint = try TreeHead(
            text: SignedNote(parsing: String(contentsOfFile: site + "/checkpoint", encoding: .utf8)).text)!
        var hashes: [Merkle.Hash] = []
        for tile in TilePath.tiles(size: checkpoint.size) where tile.level == 0 {
            let bytes = [UInt8](
                try Data(
                    contentsOf: URL(
                        fileURLWithPath: site + "/" + TilePath.hashTile(level: 0, index: tile.index, width: tile.width))
                ))
            for offset in stride(from: 0, to: bytes.count, by: 32) {
                hashes.append(ContentAddress(bytes: bytes[offset..<offset + 32]))
            }
        }
        return hashes
    }

    @Test func proofsCheckWithoutTheLedgerAndFailWhenTheyShould() throws {
        let scratch = ScratchDirectory()
        let ledger = ExampleLedgerTests.copy(scratch)
        let key = try Self.logKey(ledger)
        let proved = Self.run(["prove", ledger, "log:151", "--trust", ExampleLedgerTests.trust], scratch)
        #expect(proved.status == 0, "\(proved.stderr)")
        let proofFile = scratch.path("p.tlog-proof")
        try proved.stdout.write(toFile: proofFile, atomically: true, encoding: .utf8)
        let record = scratch.path("entry.json")
        try CLI.run(["show", ledger, "log:151"]).stdout.write(toFile: record, atomically: true, encoding: .utf8)
        let good = CLI.run(["check-proof", proofFile, "--log-key", key, record, "--json"])
        #expect(good.status == 0, "\(good.stdout) \(good.stderr)")
        #expect(good.stdout.contains(#""path":"log/0000000000/000/0000000000000151.json""#))
        // Another record, another key, a changed hash: not proven (exit 1).
        let other = scratch.path("other.json")
        try CLI.run(["show", ledger, "log:152"]).stdout.write(toFile: other, atomically: true, encoding: .utf8)
        #expect(CLI.run(["check-proof", proofFile, "--log-key", key, other]).status == 1)
        let stranger = NoteKey(
            name: "onym-chat-enforcement", type: NoteKey.ed25519, publicKey: Ed25519.PrivateKey.random().publicKey)!
        let wrongKey = CLI.run(["check-proof", proofFile, "--log-key", stranger.description])
        #expect(wrongKey.status == 1)
        #expect(wrongKey.stdout.contains("no valid signature by the log key"))
        var proof = try TlogProof(parsing: proved.stdout)
        var first = proof.hashes[0].bytes
        first[0] ^= 1
        proof = TlogProof(
            extra: proof.extra, index: proof.index, hashes: [ContentAddress(bytes: first)] + proof.hashes.dropFirst(),
            checkpoint: proof.checkpoint)
        try proof.text.write(toFile: proofFile, atomically: true, encoding: .utf8)
        let tampered = CLI.run(["check-proof", proofFile, "--log-key", key])
        #expect(tampered.status == 1)
        #expect(tampered.stdout.contains("does not lead from leaf"))
        // Witnesses required but absent: says which are missing.
        let witness = NoteKey(
            name: "auditor.example", type: NoteKey.cosignatureV1, publicKey: Ed25519.PrivateKey.random().publicKey)!
        try proved.stdout.write(toFile: proofFile, atomically: true, encoding: .utf8)
        let unwitnessed = CLI.run(["check-proof", proofFile, "--log-key", key, "--witness", witness.description])
        #expect(unwitnessed.status == 1)
        #expect(unwitnessed.stdout.contains("auditor.example (no valid cosignature)"))
    }

    @Test func publicationIsIncrementalAndRefusesAnotherHistory() throws {
        let scratch = ScratchDirectory()
        let ledger = ExampleLedgerTests.copy(scratch)
        let repository = try Repository.open(ledger)
        let tip = try #require(try repository.referenceTarget(LedgerLayout.branch))
        let older = try repository.history(from: tip)[200]
        let site = scratch.path("site")
        // Published at an older tip first (another copy), then at the tip: only what is new is written.
        let olderCopy = scratch.path("older.git")
        #expect(runProcess("cp", ["-a", ledger, olderCopy]).status == 0)
        try Repository.open(olderCopy).forceReference(LedgerLayout.branch, to: older)
        let first = Self.run(["publish", olderCopy, site, "--trust", ExampleLedgerTests.trust, "--json"], scratch)
        #expect(first.status == 0, "\(first.stderr)")
        let second = CLI.run([
            "publish", ledger, site, "--trust", ExampleLedgerTests.trust, "--json", "--state", scratch.path("state2"),
        ])
        #expect(second.status == 0, "\(second.stderr)")
        let previous = try #require(try CanonicalJSON.parse(Array(second.stdout.utf8))["previousSize"])
        #expect(previous != .integer(0))
        // A tile that disagrees with the ledger: a refused request (exit 64), the checkpoint left as it was.
        let tile = site + "/tile/0/000"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: tile)))
        bytes[0] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: tile))
        let checkpointBefore = try String(contentsOfFile: site + "/checkpoint", encoding: .utf8)
        let refused = CLI.run(["publish", ledger, site, "--state", scratch.path("state2")])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("holds other bytes than this log's tile"))
        #expect(try String(contentsOfFile: site + "/checkpoint", encoding: .utf8) == checkpointBefore)
        // A folder published from another ledger: refused (64), as a request to publish there.
        let fixture = scratch.path("fixture.git")
        try FixtureLedger.build(at: fixture)
        let fixtureTrust = scratch.path("fixture.pub")
        try (OpenSSHKey.publicKeyLine(FixtureLedger.signer1.publicKey) + "\n").write(
            toFile: fixtureTrust, atomically: true, encoding: .utf8)
        let foreign = CLI.run(["publish", fixture, site, "--trust", fixtureTrust, "--state", scratch.path("state3")])
        #expect(foreign.status == 64)
        #expect(foreign.stderr.contains("is not a checkpoint of this log"))
    }
}
