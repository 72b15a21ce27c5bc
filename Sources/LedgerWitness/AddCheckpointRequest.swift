public import LedgerFormat

/// The body of a tlog-witness `add-checkpoint` request (C2SP tlog-witness, "add-checkpoint"):
///
///     old <size>\n
///     <base64 hash>\n          (0 to 63 consistency proof lines)
///     \n
///     <checkpoint note>
///
/// "The old size line MUST consist of the string `old`, a single space (0x20), and the tree size of the
/// previous checkpoint encoded as an ASCII decimal with no leading zeroes"; "Each consistency proof line
/// MUST encode a single hash in base64. The client MUST NOT send more than 63 consistency proof lines."
/// The same type writes the body (`witness submit`) and reads it (`witness serve`).
public struct AddCheckpointRequest: Sendable, Equatable {
    /// Most consistency proof lines a request carries (tlog-witness: "MUST NOT send more than 63").
    public static let maxProofLines = 63

    public let oldSize: Int
    public let proof: [Merkle.Hash]
    /// The submitted checkpoint, as sent (it may carry several signatures).
    public let note: SignedNote
    public let checkpoint: CheckpointBody

    public init(oldSize: Int, proof: [Merkle.Hash], note: SignedNote, checkpoint: CheckpointBody) {
        self.oldSize = oldSize
        self.proof = proof
        self.note = note
        self.checkpoint = checkpoint
    }

    /// The request body's bytes.
    public var body: String {
        "old \(oldSize)\n" + proof.map { Base64.encode($0.bytes) + "\n" }.joined() + "\n" + note.formatted
    }

    /// Parses a request body; the error says which line breaks which rule (answered with 400).
    public init(parsing bytes: [UInt8]) throws(WitnessRefusal) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .malformed("the request body is not UTF-8")
        }
        var rest = Substring(text)
        func line() throws(WitnessRefusal) -> Substring {
            guard let end = rest.firstIndex(of: "\n") else {
                throw .malformed("every line ends in a newline (U+000A); the body ends inside a line")
            }
            defer { rest = rest[rest.index(after: end)...] }
            return rest[..<end]
        }
        let old = try line()
        guard old.hasPrefix("old "), let size = Self.decimal(old.dropFirst(4)) else {
            throw .malformed(
                "the first line is 'old <size>' (ASCII decimal, no leading zeroes); got '\(old.prefix(40))'")
        }
        var proof: [Merkle.Hash] = []
        while true {
            let hashLine = try line()
            if hashLine.isEmpty { break }
            guard proof.count < Self.maxProofLines else {
                throw .malformed("more than \(Self.maxProofLines) consistency proof lines")
            }
            guard let raw = Base64.decode(String(hashLine)), raw.count == 32 else {
                throw .malformed("consistency proof line \(proof.count + 1) is not a base64 32-byte hash")
            }
            proof.append(ContentAddress(bytes: raw))
        }
        let note: SignedNote
        do {
            note = try SignedNote(parsing: String(rest))
        } catch {
            throw .malformed("the checkpoint is not a signed note: \(error.description)")
        }
        guard let checkpoint = CheckpointBody(text: note.text) else {
            throw .malformed("the note is not a checkpoint (origin, tree size, base64 root hash, one per line)")
        }
        self.init(oldSize: size, proof: proof, note: note, checkpoint: checkpoint)
    }

    /// An ASCII decimal with no leading zeroes ("0" for zero), as tlog-witness and tlog-checkpoint write sizes.
    static func decimal(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 19, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            text == "0" || text.first != "0"
        else { return nil }
        return Int(text)
    }
}

/// A C2SP tlog-checkpoint body as a witness reads it from any log: origin, tree size and root hash lines,
/// then optional extension lines (tlog-checkpoint: "zero or more" non-empty lines, signed but carrying no
/// statement). `TreeHead` is this ledger's own body, which has none.
public struct CheckpointBody: Sendable, Equatable {
    public let origin: String
    public let size: Int
    public let root: Merkle.Hash
    /// The whole body, extension lines included: what a cosignature signs.
    public let text: String

    public init?(text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 4, lines.last == "", !lines[0].isEmpty,
            lines.dropFirst(3).dropLast().allSatisfy({ !$0.isEmpty }),
            let size = AddCheckpointRequest.decimal(lines[1]),
            let raw = Base64.decode(String(lines[2])), raw.count == 32, Base64.encode(raw) == lines[2]
        else { return nil }
        origin = String(lines[0])
        self.size = size
        root = ContentAddress(bytes: raw)
        self.text = text
    }
}
