import Foundation
import Testing

@testable import LedgerFormat

/// C2SP signed notes, checkpoints, tiles and RFC 6962 proofs — against the specs' known answers
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

    static let noteChecker = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/notecheck").path

    /// The checkpoint notes whose signature lines the interop test judges, by name: the log key's line good
    /// or bad (one byte flipped), alone, twice, or beside a line by a key the reader does not know.
    static func checkpointNotes() -> (key: NoteKey, notes: [(name: String, note: SignedNote)]) {
        let signer = Ed25519.PrivateKey(seed: [UInt8](repeating: 7, count: 32))!
        let stranger = Ed25519.PrivateKey(seed: [UInt8](repeating: 8, count: 32))!
        let origin = "example.onym.invalid/log"
        let key = NoteKey(name: origin, type: NoteKey.ed25519, publicKey: signer.publicKey)!
        let text = TreeHead(origin: origin, size: 3, root: ContentAddress(hashing: [3])).text
        let good = SignedNote.sign(text, name: origin, with: signer)!
        var flipped = good.payload
        flipped[10] ^= 1
        let bad = SignedNote.Signature(name: good.name, keyID: good.keyID, payload: flipped)
        let unknown = SignedNote.sign(text, name: "other.example/log", with: stranger)!
        let lines: [(String, [SignedNote.Signature])] = [
            ("good", [good]), ("bad", [bad]), ("bad-then-good", [bad, good]), ("good-then-bad", [good, bad]),
            ("good-twice", [good, good]), ("good-and-unknown", [good, unknown]),
            ("unknown-then-good", [unknown, good]),
            ("unknown-only", [unknown]),
        ]
        return (key, lines.map { ($0.0, SignedNote(text: text, signatures: $0.1)) })
    }

    /// docs/FORMAT.md "Checkpoints": a ledger's checkpoint carries exactly one signature line, the log key's,
    /// which verifies. The stock C2SP client (golang.org/x/mod's sumdb/note, built here from Debian's
    /// golang-golang-x-mod-dev) accepts every checkpoint the verifier accepts — the verifier is at least as
    /// strict — and where they differ it is by the decision written down: an extra line by an unknown key,
    /// which C2SP clients ignore, and a log-key line repeated, which x/mod drops unread.
    @Test func checkpointSignatureLinesAreJudgedAtLeastAsStrictlyAsXMod() throws {
        let scratch = ScratchDirectory()
        let (key, notes) = Self.checkpointNotes()
        try key.description.write(toFile: scratch.path("vkey"), atomically: true, encoding: .utf8)
        for (name, note) in notes {
            try note.formatted.write(toFile: scratch.path(name), atomically: true, encoding: .utf8)
        }
        let result = runProcess(
            "go", ["run", "main.go", scratch.path("vkey")] + notes.map { scratch.path($0.name) },
            cwd: URL(fileURLWithPath: Self.noteChecker),
            environment: [
                "GO111MODULE": "off", "GOPATH": "/usr/share/gocode", "GOCACHE": scratch.path("gocache"),
                "HOME": scratch.path("home"), "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            ])
        // Without go (Debian's golang-go) this fails: the comparison never passes silently.
        #expect(result.status == 0, "go run notecheck: \(result.stdout) \(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        func goAccepts(_ name: String) -> Bool? {
            if lines.contains(where: { $0 == "accept \(scratch.path(name))" }) { return true }
            if lines.contains(where: { $0.hasPrefix("reject \(scratch.path(name)):") }) { return false }
            return nil
        }
        var verdicts: [String: (ours: Bool, go: Bool?)] = [:]
        for (name, note) in notes {
            let parsed = try SignedNote(parsing: note.formatted)
            verdicts[name] = (parsed.checkpointSignatureProblem(logKey: key) == nil, goAccepts(name))
        }
        for (name, verdict) in verdicts {
            #expect(verdict.go != nil, "x/mod said nothing about \(name): \(result.stdout)")
            if verdict.ours { #expect(verdict.go == true, "\(name): accepted here, refused by x/mod") }
        }
        #expect(verdicts.filter(\.value.ours).map(\.key) == ["good"])
        #expect(verdicts["bad-then-good"]?.go == false)  // what the red team's checkpoint meets in x/mod
        for name in ["good", "good-then-bad", "good-twice", "good-and-unknown", "unknown-then-good"] {
            #expect(verdicts[name]?.go == true, "\(name): x/mod accepts it")
        }
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
