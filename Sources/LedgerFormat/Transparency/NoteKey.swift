/// A signed-note verifier key (C2SP signed-note, "Verifier keys"): `<name>+<hex8 key ID>+b64(type || key)`,
/// with `keyID = SHA-256(name || 0x0A || type || public key)[:4]`. Types here: 0x01 Ed25519 (a log's
/// checkpoint signature) and 0x04 cosignature/v1 (a witness's timestamped Ed25519).
public struct NoteKey: Sendable, Hashable, CustomStringConvertible {
    public static let ed25519: UInt8 = 0x01
    public static let cosignatureV1: UInt8 = 0x04

    public let name: String
    public let type: UInt8
    public let publicKey: Ed25519.PublicKey

    /// Equal when the names are the same bytes (docs/FORMAT.md, "Strings compare by bytes") and the type and
    /// key are the same: a witness trusting `w/K` and `w/\u{212A}` under one key trusts two names.
    public static func == (left: NoteKey, right: NoteKey) -> Bool {
        left.name.hasSameBytes(as: right.name) && left.type == right.type && left.publicKey == right.publicKey
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(WireString(name))
        hasher.combine(type)
        hasher.combine(publicKey)
    }

    public init?(name: String, type: UInt8, publicKey: Ed25519.PublicKey) {
        guard Self.isValidName(name), type == Self.ed25519 || type == Self.cosignatureV1 else { return nil }
        self.name = name
        self.type = type
        self.publicKey = publicKey
    }

    /// Parses the text form; nil for a malformed key, another type, or a key ID that does not match.
    public init?(_ text: String) {
        // The base64 part can contain `+`: split on the first two only, on scalars as Go splits bytes (a
        // combining mark after `+` does not hide it).
        let parts = text.unicodeScalars.split(separator: "+", maxSplits: 2, omittingEmptySubsequences: false).map {
            String(Substring($0))
        }
        guard parts.count == 3, parts[1].utf8.count == 8, let id = UInt32(parts[1], radix: 16),
            parts[1] == parts[1].lowercased(), let raw = Base64.decode(parts[2]), raw.count == 33,
            let key = Ed25519.PublicKey(rawRepresentation: raw.dropFirst()),
            let parsed = NoteKey(name: parts[0], type: raw[0], publicKey: key), parsed.keyID == id
        else { return nil }
        self = parsed
    }

    /// Key names: non-empty, no Unicode spaces, no `+` (signed-note).
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.unicodeScalars.contains("+")
            && !name.unicodeScalars.contains { $0.properties.isWhitespace }
            && !name.unicodeScalars.contains { $0.value < 0x20 }
    }

    public var keyID: UInt32 {
        let digest = SHA256.hash(Array(name.utf8) + [0x0A, type] + publicKey.rawRepresentation).bytes
        return digest[0..<4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    public var description: String {
        "\(name)+\(Self.hex(keyID))+" + Base64.encode([type] + publicKey.rawRepresentation)
    }

    /// A key ID as signed-note writes it: 8 lowercase hex digits.
    public static func hex(_ keyID: UInt32) -> String {
        let digits = String(keyID, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}

/// A signed note (C2SP signed-note): text ending in a newline, a blank line, and signature lines
/// `— <name> b64(keyID || signature)`.
public struct SignedNote: Sendable, Equatable {
    public struct Signature: Sendable, Equatable {
        public let name: String
        public let keyID: UInt32
        /// The bytes after the key ID (64 for Ed25519, 72 for cosignature/v1: timestamp then signature).
        public let payload: [UInt8]

        /// Equal when the names are the same bytes and the key IDs and payloads are the same.
        public static func == (left: Signature, right: Signature) -> Bool {
            left.name.hasSameBytes(as: right.name) && left.keyID == right.keyID && left.payload == right.payload
        }

        public init(name: String, keyID: UInt32, payload: [UInt8]) {
            self.name = name
            self.keyID = keyID
            self.payload = payload
        }

        public var line: String {
            let id = (0..<4).map { UInt8(truncatingIfNeeded: keyID >> (24 - 8 * $0)) }
            return "\u{2014} \(name) \(Base64.encode(id + payload))\n"
        }
    }

    /// The signed text, ending in `\n`.
    public let text: String
    public var signatures: [Signature]

    /// Equal when the texts are the same bytes and the signature lines are equal.
    public static func == (left: SignedNote, right: SignedNote) -> Bool {
        left.text.hasSameBytes(as: right.text) && left.signatures == right.signatures
    }

    public init(text: String, signatures: [Signature]) {
        self.text = text
        self.signatures = signatures
    }

    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Most signature lines a note may carry (C2SP signed-note clients stop at 100).
    public static let maxSignatures = 100

    /// Parses a note: split at the last blank line; every signature line well formed.
    public init(parsing note: String) throws(ParseError) {
        guard note.unicodeScalars.allSatisfy({ $0.value >= 0x20 || $0 == "\n" }) else {
            throw ParseError(description: "a note holds no control characters but newlines")
        }
        let bytes = Array(note.utf8)
        guard bytes.count >= 2, bytes.last == 0x0A else { throw ParseError(description: "a note ends in a newline") }
        var split: Int?
        for index in stride(from: bytes.count - 2, through: 0, by: -1)
        where bytes[index] == 0x0A && bytes[index + 1] == 0x0A {
            split = index
            break
        }
        guard let split else { throw ParseError(description: "a note has a blank line before its signatures") }
        text = String(decoding: bytes[...split], as: UTF8.self)
        var signatures: [Signature] = []
        for line in String(decoding: bytes[(split + 2)...], as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        ).dropLast() {
            // Fields split on scalars, as Go splits bytes: a combining mark after a space does not join it.
            let fields = line.unicodeScalars.split(separator: " ", omittingEmptySubsequences: false).map {
                String(Substring($0))
            }
            guard fields.count == 3, fields[0].hasSameBytes(as: "\u{2014}"), NoteKey.isValidName(fields[1]),
                let raw = Base64.decode(fields[2]), raw.count > 4
            else { throw ParseError(description: "a signature line is not '\u{2014} <name> <base64>': \(line)") }
            signatures.append(
                Signature(
                    name: fields[1], keyID: raw[0..<4].reduce(0) { $0 << 8 | UInt32($1) },
                    payload: Array(raw.dropFirst(4))))
        }
        guard !signatures.isEmpty else { throw ParseError(description: "a note carries at least one signature") }
        // golang.org/x/mod's sumdb/note refuses a note of more than 100 signatures: no note read here has more.
        guard signatures.count <= Self.maxSignatures else {
            throw ParseError(description: "a note carries at most \(Self.maxSignatures) signatures")
        }
        self.signatures = signatures
    }

    public var formatted: String { text + "\n" + signatures.map(\.line).joined() }

    /// The signatures made by `key` (its name and key ID).
    public func signatures(by key: NoteKey) -> [Signature] {
        signatures.filter { $0.name.hasSameBytes(as: key.name) && $0.keyID == key.keyID }
    }

    /// The one signature line by `key`, nil when the note carries none or several. A reader that trusts a
    /// key judges its one line, never the best of several: golang.org/x/mod's sumdb/note refuses a note
    /// whose first line by a known key does not verify, and drops that key's later lines unread, so a bad
    /// line before a good one is refused there — and, since several lines are never needed, here too
    /// (docs/FORMAT.md, "Checkpoints").
    public func soleSignature(by key: NoteKey) -> Signature? {
        let lines = signatures(by: key)
        return lines.count == 1 ? lines[0] : nil
    }

    /// Whether the note carries exactly one line by `key`, an Ed25519 (0x01) signature over the text that
    /// verifies (``soleSignature(by:)``).
    public func isSigned(by key: NoteKey) -> Bool {
        guard key.type == NoteKey.ed25519, let line = soleSignature(by: key) else { return false }
        return line.payload.count == 64 && key.publicKey.isValidSignature(line.payload, for: Array(text.utf8))
    }

    /// Why the note is not a ledger's `checkpoint` signed by the log key `key`, nil when it is: exactly one
    /// signature line, the log key's, which verifies (docs/FORMAT.md, "Checkpoints": the writer signs once,
    /// cosignatures have files of their own, and a line no rule checks would be bytes no reader judges).
    public func checkpointSignatureProblem(logKey key: NoteKey) -> String? {
        let byLogKey = signatures(by: key)
        if byLogKey.isEmpty { return "no signature by the log key \(key)" }
        if byLogKey.count > 1 {
            return "\(byLogKey.count) signature lines by the log key; a checkpoint carries exactly one"
        }
        if !isSigned(by: key) { return "the log key's signature does not verify" }
        if let other = signatures.first(where: { !$0.name.hasSameBytes(as: key.name) || $0.keyID != key.keyID }) {
            return "a signature line by \(other.name) (key ID \(NoteKey.hex(other.keyID))), not the log key: "
                + "a checkpoint carries the log key's signature only"
        }
        return nil
    }

    /// An Ed25519 (0x01) signature of `text` by `privateKey` under `name`.
    public static func sign(_ text: String, name: String, with privateKey: Ed25519.PrivateKey) -> Signature? {
        guard let key = NoteKey(name: name, type: NoteKey.ed25519, publicKey: privateKey.publicKey) else { return nil }
        return Signature(name: name, keyID: key.keyID, payload: privateKey.signature(for: Array(text.utf8)))
    }
}
