/// A C2SP tlog-proof (`c2sp.org/tlog-proof@v1`): an offline inclusion proof with the checkpoint it is
/// against, so a third party can check that an entry is in the log without the log.
///
/// ```text
/// c2sp.org/tlog-proof@v1
/// extra <base64 of the leaf entry>      (here: the ledger's leaf statement {"path","sha256"})
/// index <leaf index>
/// <base64 hash>                          (the inclusion proof, the leaf's sibling first)
///
/// <the checkpoint note, with its signatures and cosignatures>
/// ```
public struct TlogProof: Sendable, Equatable {
    public static let header = "c2sp.org/tlog-proof@v1"

    public let extra: [UInt8]?
    public let index: Int
    public let hashes: [Merkle.Hash]
    /// The checkpoint note, verbatim.
    public let checkpoint: String

    public init(extra: [UInt8]?, index: Int, hashes: [Merkle.Hash], checkpoint: String) {
        self.extra = extra
        self.index = index
        self.hashes = hashes
        self.checkpoint = checkpoint
    }

    public var text: String {
        var lines = [Self.header]
        if let extra { lines.append("extra " + Base64.encode(extra)) }
        lines.append("index \(index)")
        lines += hashes.map { Base64.encode($0.bytes) }
        return lines.joined(separator: "\n") + "\n\n" + checkpoint
    }

    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public init(parsing text: String) throws(ParseError) {
        let bytes = Array(text.utf8)
        guard let split = bytes.indices.dropLast().first(where: { bytes[$0] == 0x0A && bytes[$0 + 1] == 0x0A }) else {
            throw ParseError(description: "a tlog-proof has a blank line before its checkpoint")
        }
        let head = String(decoding: bytes[..<split], as: UTF8.self)
        var lines = head.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard lines.first == Substring(Self.header) else {
            throw ParseError(description: "a tlog-proof starts with '\(Self.header)'")
        }
        lines = lines.dropFirst()
        var extra: [UInt8]?
        if let line = lines.first, line.hasPrefix("extra ") {
            guard let bytes = Base64.decode(String(line.dropFirst(6))) else {
                throw ParseError(description: "the extra line is not base64")
            }
            extra = bytes
            lines = lines.dropFirst()
        }
        guard let line = lines.first, line.hasPrefix("index "), let index = Int(line.dropFirst(6)), index >= 0,
            String(index) == line.dropFirst(6)
        else { throw ParseError(description: "a tlog-proof states 'index <n>'") }
        var hashes: [Merkle.Hash] = []
        for hashLine in lines.dropFirst() {
            guard let raw = Base64.decode(String(hashLine)), raw.count == 32 else {
                throw ParseError(description: "a proof line is not a base64 SHA-256 hash: \(hashLine)")
            }
            hashes.append(ContentAddress(bytes: raw))
        }
        self.init(
            extra: extra, index: index, hashes: hashes,
            checkpoint: String(decoding: bytes[(split + 2)...], as: UTF8.self))
    }
}
