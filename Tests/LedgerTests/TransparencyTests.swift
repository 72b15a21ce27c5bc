import Foundation
import Testing

@testable import LedgerFormat

/// Issue 15: C2SP signed notes, checkpoints, tiles and RFC 6962 proofs — against the specs' known answers
/// and against an independent implementation (golang.org/x/mod's sumdb/note and sumdb/tlog, run with Go).
@Suite("Transparency: notes, tiles, proofs")
struct TransparencyTests {
    static var vectors: [String: Any] { Vectors.json("transparency/tlog.json") as! [String: Any] }

    /// x/mod's private-key text: `PRIVATE+KEY+<name>+<hex8>+b64(0x01 || seed)`.
    static func privateKey(_ text: String) -> (name: String, key: Ed25519.PrivateKey) {
        let parts = text.split(separator: "+", maxSplits: 4)
        let raw = Base64.decode(String(parts[4]))!
        return (String(parts[2]), Ed25519.PrivateKey(seed: raw.dropFirst())!)
    }

    @Test func aNoteSignsAndVerifiesAsXModsExample() throws {
        let note = Self.vectors["note"] as! [String: String]
        let (name, key) = Self.privateKey(note["privateKey"]!)
        let verifier = try #require(NoteKey(note["verifierKey"]!))
        #expect(verifier.description == note["verifierKey"])
        #expect(NoteKey(name: name, type: NoteKey.ed25519, publicKey: key.publicKey) == verifier)
        let signature = try #require(SignedNote.sign(note["text"]!, name: name, with: key))
        let signed = SignedNote(text: note["text"]!, signatures: [signature])
        #expect(signed.formatted == note["signed"])
        let parsed = try SignedNote(parsing: note["signed"]!)
        #expect(parsed == signed)
        #expect(parsed.isSigned(by: verifier))
        // Another text under the same signature, or another key, does not verify.
        let other = SignedNote(text: "then you do\n", signatures: parsed.signatures)
        #expect(!other.isSigned(by: verifier))
        let stranger = NoteKey(name: name, type: NoteKey.ed25519, publicKey: Ed25519.PrivateKey.random().publicKey)!
        #expect(!parsed.isSigned(by: stranger))
    }

    @Test func verifierKeysRederiveTheirKeyID() throws {
        let spec = Self.vectors["specVerifierKey"] as! String
        let key = try #require(NoteKey(spec))
        #expect(key.description == spec)
        // A key ID that does not match its name and key is refused, as is another signature type.
        #expect(NoteKey(spec.replacingOccurrences(of: "530d903a", with: "530d903b")) == nil)
        #expect(NoteKey("example.com/bar+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k") == nil)
        #expect(NoteKey(spec.replacingOccurrences(of: "+Aeky", with: "+Beky")) == nil)
    }

    @Test func notesWithoutSignaturesOrWithControlCharactersAreRefused() {
        #expect(throws: SignedNote.ParseError.self) { try SignedNote(parsing: "text\n") }
        #expect(throws: SignedNote.ParseError.self) { try SignedNote(parsing: "text\n\n") }
        #expect(throws: SignedNote.ParseError.self) { try SignedNote(parsing: "te\rxt\n\n\u{2014} a AAAAAAAA\n") }
        #expect(throws: SignedNote.ParseError.self) { try SignedNote(parsing: "text\n\n- a AAAAAAAA\n") }
    }

    @Test func theEmptyTreeAndCheckpointBodies() throws {
        #expect(Base64.encode(Merkle.emptyRoot.bytes) == Self.vectors["emptyRoot"] as? String)
        #expect(CompactRange().root == Merkle.emptyRoot)
        let head = TreeHead(origin: "example.com/log", size: 0, root: Merkle.emptyRoot)
        #expect(head.text == "example.com/log\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n")
        #expect(TreeHead(text: head.text) == head)
        #expect(TreeHead(text: "example.com/log\n007\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n") == nil)
        #expect(TreeHead(text: head.text + "extension\n") == nil)
    }

    @Test func tilePathsAreTheSpecs() {
        for (index, path) in Self.vectors["indexPaths"] as! [String: String] {
            #expect(TilePath.index(Int(index)!) == path)
        }
        for (size, expected) in Self.vectors["tiles"] as! [String: Any] {
            let paths = TilePath.tiles(size: Int(size)!).map {
                TilePath.hashTile(level: $0.level, index: $0.index, width: $0.width)
            }
            if let list = expected as? [String] {
                #expect(paths == list, "size \(size)")
            } else if let summary = expected as? [String: Any] {
                #expect(paths.count == summary["count"] as? Int, "size \(size)")
                #expect(Array(paths.suffix(4)) == summary["last"] as? [String], "size \(size)")
            }
        }
    }

    static func leaves(_ count: Int) -> [[UInt8]] { (0..<count).map { Array("entry \($0)\n".utf8) } }

    /// The right edge and the recursive definition agree, and every proof made checks, for every size to 300.
    @Test func compactRangesAndProofsAgreeWithTheDefinition() {
        let entries = Self.leaves(300)
        let hashes = entries.map { Merkle.leafHash($0) }
        var range = CompactRange()
        var roots: [Merkle.Hash] = [Merkle.emptyRoot]
        for hash in hashes {
            range.append(hash)
            roots.append(range.root)
        }
        for size in 0...300 {
            #expect(roots[size] == Merkle.root(hashes[..<size]), "size \(size)")
        }
        for size in [1, 2, 3, 7, 8, 9, 255, 256, 257, 300] {
            for index in Set([0, size / 2, size - 1]) {
                let proof = Merkle.inclusionProof(index: index, leaves: hashes[..<size])
                #expect(
                    Merkle.verifyInclusion(
                        leaf: hashes[index], index: index, size: size, proof: proof, root: roots[size]))
                #expect(
                    !Merkle.verifyInclusion(
                        leaf: hashes[(index + 1) % 300], index: index, size: size, proof: proof, root: roots[size]))
            }
            for old in Set([0, 1, size / 3, size - 1, size]) where old <= size {
                let proof = Merkle.consistencyProof(oldSize: old, leaves: hashes[..<size])
                #expect(
                    Merkle.verifyConsistency(
                        oldSize: old, newSize: size, oldRoot: roots[old], newRoot: roots[size], proof: proof),
                    "\(old) → \(size)")
                if old > 0 && old < size {
                    #expect(
                        !Merkle.verifyConsistency(
                            oldSize: old, newSize: size, oldRoot: roots[old - 1], newRoot: roots[size], proof: proof))
                }
            }
        }
    }

    // MARK: - Against golang.org/x/mod

    static let goChecker = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/tlogcheck").path

    /// Writes a publication of `size` entries (checkpoint, vkey, tiles, proofs) and runs x/mod's checks on it.
    static func checkWithGo(size: Int, tamper: ((String) -> Void)? = nil) throws -> (status: Int32, output: String) {
        let scratch = ScratchDirectory()
        let dir = scratch.path("log")
        let entries = leaves(size)
        let tiles = TileSet(entries: entries)
        let key = Ed25519.PrivateKey(seed: [UInt8](repeating: 7, count: 32))!
        let origin = "example.onym.invalid/log"
        let head = TreeHead(origin: origin, size: size, root: tiles.root)
        let note = SignedNote(text: head.text, signatures: [SignedNote.sign(head.text, name: origin, with: key)!])
        let files = FileManager.default
        try files.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try note.formatted.write(toFile: dir + "/checkpoint", atomically: true, encoding: .utf8)
        try NoteKey(name: origin, type: NoteKey.ed25519, publicKey: key.publicKey)!.description.write(
            toFile: dir + "/vkey", atomically: true, encoding: .utf8)
        for (path, bytes) in tiles.files() {
            let url = URL(fileURLWithPath: dir + "/" + path)
            try files.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        var proofs = ""
        let hashes = tiles.levels[0]
        for index in Set([0, size / 2, size - 1]) where index >= 0 && index < size {
            let path = Merkle.inclusionProof(index: index, leaves: hashes[...])
            proofs +=
                (["inclusion", String(index), Base64.encode(entries[index])] + path.map { Base64.encode($0.bytes) })
                .joined(separator: " ") + "\n"
        }
        for old in Set([1, size / 3, size - 1]) where old >= 1 && old < size {
            let proof = Merkle.consistencyProof(oldSize: old, leaves: hashes[...])
            proofs +=
                (["consistency", String(old), Base64.encode(Merkle.root(hashes[..<old]).bytes)]
                + proof.map { Base64.encode($0.bytes) }).joined(separator: " ") + "\n"
        }
        try proofs.write(toFile: dir + "/proofs.txt", atomically: true, encoding: .utf8)
        tamper?(dir)
        return runGoChecker(dir, scratch: scratch)
    }

    /// Runs the x/mod checker (Tests/Interop/tlogcheck) on a publication folder.
    static func runGoChecker(_ dir: String, scratch: borrowing ScratchDirectory) -> (status: Int32, output: String) {
        let result = runProcess(
            "go", ["run", "main.go", dir], cwd: URL(fileURLWithPath: goChecker),
            environment: [
                "GO111MODULE": "off", "GOPATH": "/usr/share/gocode", "GOCACHE": scratch.path("gocache"),
                "HOME": scratch.path("home"), "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            ])
        return (result.status, result.stdout + result.stderr)
    }

    @Test(arguments: [0, 1, 255, 256, 257, 3000])
    func xModAcceptsOurCheckpointTilesAndProofs(size: Int) throws {
        let result = try Self.checkWithGo(size: size)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("ok checkpoint example.onym.invalid/log size \(size)"))
        if size > 0 {
            #expect(result.output.contains("ok tiles give the root for size \(size)"))
            #expect(result.output.contains("ok inclusion \(size - 1) of \(size)"))
        }
        if size > 1 { #expect(result.output.contains("ok consistency 1 of \(size)")) }
    }

    @Test func xModRefusesATamperedTile() throws {
        let result = try Self.checkWithGo(size: 300) { dir in
            let path = dir + "/tile/0/000"
            var bytes = [UInt8](try! Data(contentsOf: URL(fileURLWithPath: path)))
            bytes[5] ^= 1
            try! Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        #expect(result.status != 0)
        #expect(result.output.contains("FAIL"), "\(result.output)")
    }
}
