/// A C2SP tlog-checkpoint body: the origin line, the tree size, the base64 root hash, each ending in a
/// newline (no extension lines: none is needed here). Signed as a ``SignedNote`` by the log's key.
public struct TreeHead: Sendable, Equatable {
    public let origin: String
    public let size: Int
    public let root: Merkle.Hash

    public init(origin: String, size: Int, root: Merkle.Hash) {
        self.origin = origin
        self.size = size
        self.root = root
    }

    public var text: String { "\(origin)\n\(size)\n\(Base64.encode(root.bytes))\n" }

    /// Parses a checkpoint body (extension lines are refused: this log writes none).
    public init?(text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 4, lines[3].isEmpty, !lines[0].isEmpty,
            let size = Int(lines[1]), size >= 0, String(size) == lines[1],
            let raw = Base64.decode(String(lines[2])), raw.count == 32,
            Base64.encode(raw) == lines[2]
        else { return nil }
        origin = String(lines[0])
        self.size = size
        root = ContentAddress(bytes: raw)
    }
}

/// A witness's cosignature (C2SP tlog-cosignature, cosignature/v1, type 0x04): an Ed25519 signature over
/// `cosignature/v1\ntime <t>\n` followed by the checkpoint body, carried as a note signature line whose
/// payload is the 8-byte big-endian timestamp and the 64-byte signature.
public enum Cosignature {
    public static func message(body: String, time: Int64) -> [UInt8] {
        Array("cosignature/v1\ntime \(time)\n\(body)".utf8)
    }

    public static func sign(body: String, time: Int64, name: String, with key: Ed25519.PrivateKey)
        -> SignedNote.Signature?
    {
        guard let verifier = NoteKey(name: name, type: NoteKey.cosignatureV1, publicKey: key.publicKey) else {
            return nil
        }
        return try? sign(body: body, time: time, key: verifier, signer: key)
    }

    /// The cosignature line of `key` (type 0x04) over `body` at `time`, signed by `signer` (a key in memory
    /// or one ssh-agent holds).
    public static func sign(body: String, time: Int64, key: NoteKey, signer: any CommitSigner) throws(SigningError)
        -> SignedNote.Signature
    {
        precondition(key.type == NoteKey.cosignatureV1 && time >= 0)
        let timestamp = (0..<8).map { UInt8(truncatingIfNeeded: time >> (56 - 8 * $0)) }
        let signature = try signer.ed25519Signature(over: message(body: body, time: time))
        return SignedNote.Signature(name: key.name, keyID: key.keyID, payload: timestamp + signature)
    }

    /// The witnesses `keys` name, one group per Ed25519 key, in the order first given: a witness is its
    /// key (docs/VERIFY.md, "Witness quorum"), so a key given twice, or under two names, is one witness and
    /// counts once toward a quorum. A group holds every name the key was given under; a cosignature under
    /// any of them is that witness's.
    public static func witnesses(_ keys: [NoteKey]) -> [[NoteKey]] {
        var groups: [[NoteKey]] = []
        for key in keys {
            if let index = groups.firstIndex(where: { $0[0].publicKey == key.publicKey }) {
                if !groups[index].contains(key) { groups[index].append(key) }
            } else {
                groups.append([key])
            }
        }
        return groups
    }

    /// How a witness (all its names) is shown: `auditor.example`, or `auditor.example/alias.example`.
    public static func witnessName(_ group: [NoteKey]) -> String { group.map(\.name).joined(separator: "/") }

    /// The time of a valid cosignature by `key` on `note`, nil when it has none.
    public static func verifiedTime(of note: SignedNote, by key: NoteKey) -> Int64? {
        // The witness's one line (``SignedNote/soleSignature(by:)``): never the best of several.
        guard key.type == NoteKey.cosignatureV1, let signature = note.soleSignature(by: key),
            signature.payload.count == 72
        else { return nil }
        let time = signature.payload[0..<8].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        guard time >= 0,
            key.publicKey.isValidSignature(signature.payload[8...], for: message(body: note.text, time: time))
        else { return nil }
        return time
    }
}
