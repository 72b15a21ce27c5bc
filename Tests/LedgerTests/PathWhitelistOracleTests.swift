import Foundation
import LedgerFormat
import Testing

/// `LedgerLayout.locate(_:)` against a second reading of docs/FORMAT.md, "Paths", written differently: the
/// whitelist as patterns over the path's Unicode scalars, the numbers and prefixes checked from the captures.
/// Every path the generator makes — valid ones of every shape and near misses one byte away — must be read
/// the same way by both, meaning and batch.
@Suite("Paths: the whitelist against an oracle from docs/FORMAT.md")
struct PathWhitelistOracleTests {
    /// The kinds' folders, as FORMAT.md's table names them.
    static let folders: [(String, any StoredRecord.Type)] = [
        ("profiles", EnforcementProfile.self), ("manifests", AuthorityManifest.self), ("mandates", Mandate.self),
        ("verdicts", Verdict.self), ("receipts", VerdictReceipt.self), ("status-attempts", StatusAttempt.self),
        ("compromise-reports", CompromiseReport.self), ("revocations", RevocationDetermination.self),
        ("grants", Grant.self), ("redemptions", Redemption.self),
    ]

    /// The oracle: FORMAT.md's table, one pattern a row.
    static func oracle(_ path: String) -> (meaning: LedgerLayout.PathMeaning, batch: Int64?)? {
        guard path.unicodeScalars.allSatisfy(\.isASCII) else { return nil }
        switch path {
        case "ledger.json": return (.descriptor, nil)
        case "keys/allowed_signers": return (.allowedSigners, nil)
        case "checkpoint": return (.checkpoint, nil)
        default: break
        }
        if let match = path.wholeMatch(of: /cosignatures\/([0-9a-f]{8})/.matchingSemantics(.unicodeScalar)) {
            return (.cosignature(UInt32(match.1, radix: 16)!), nil)
        }
        if let match = path.wholeMatch(
            of: /log\/([0-9]{10})\/([0-9]{3})\/([0-9]{16})\.json/.matchingSemantics(.unicodeScalar))
        {
            let digits = String(match.3)
            guard digits.hasPrefix(match.1 + match.2), let sequence = Int64(digits), sequence >= 1 else { return nil }
            return (.logEntry(sequence), nil)
        }
        let record = /batches\/([0-9]{7})\/([0-9]{10})\/([a-z-]+)\/([0-9a-f])\/([0-9a-f]{64})\.(json|sig)/
        guard let match = path.wholeMatch(of: record.matchingSemantics(.unicodeScalar)),
            match.2.hasPrefix(match.1), let batch = Int64(match.2), batch >= 1, batch <= Int64(UInt32.max),
            match.5.hasPrefix(match.4), let kind = folders.first(where: { $0.0 == match.3 })?.1,
            let address = ContentAddress(hex: String(match.5))
        else { return nil }
        if match.6 == "sig" {
            return kind == AuthorityManifest.self ? (.manifestSignature(address), batch) : nil
        }
        return (.record(kind, address), batch)
    }

    /// Valid paths of every shape, from a seeded generator.
    static func validPaths(count: Int, generator: inout some RandomNumberGenerator) -> [String] {
        func hex(_ digits: Int) -> String {
            String((0..<digits).map { _ in "0123456789abcdef".randomElement(using: &generator)! })
        }
        func padded(_ value: Int64, _ digits: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: digits - text.count) + text
        }
        var paths = ["ledger.json", "keys/allowed_signers", "checkpoint"]
        for _ in 0..<count {
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                paths.append("cosignatures/\(hex(8))")
            case 1:
                let sequence = Int64.random(in: 1...9_999_999_999_999_999, using: &generator)
                let digits = padded(
                    Bool.random(using: &generator) ? sequence : sequence % 100_000, 16)
                guard digits != String(repeating: "0", count: 16) else { continue }
                paths.append("log/\(digits.prefix(10))/\(digits.dropFirst(10).prefix(3))/\(digits).json")
            default:
                let batch =
                    Bool.random(using: &generator)
                    ? Int64.random(in: 1...Int64(UInt32.max), using: &generator)
                    : Int64.random(in: 1...5000, using: &generator)
                let digits = padded(batch, 10)
                let (folder, kind) = folders.randomElement(using: &generator)!
                let address = hex(64)
                let suffix = kind == AuthorityManifest.self && Bool.random(using: &generator) ? "sig" : "json"
                paths.append(
                    "batches/\(digits.prefix(7))/\(digits)/\(folder)/\(address.prefix(1))/\(address).\(suffix)")
            }
        }
        return paths
    }

    /// A near miss: one byte of `path` replaced, removed or doubled, or one of the shapes' own mistakes.
    static func nearMiss(of path: String, generator: inout some RandomNumberGenerator) -> String {
        var bytes = Array(path.utf8)
        let position = Int.random(in: 0..<bytes.count, using: &generator)
        let replacements: [[UInt8]] = [
            Array("0".utf8), Array("9".utf8), Array("a".utf8), Array("f".utf8), Array("g".utf8), Array("A".utf8),
            Array("F".utf8), Array("/".utf8), Array(".".utf8), Array("-".utf8), [0], [0x7F], Array("é".utf8),
            Array("٣".utf8),
        ]
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: bytes.replaceSubrange(position...position, with: replacements.randomElement(using: &generator)!)
        case 1: bytes.remove(at: position)
        case 2: bytes.insert(bytes[position], at: position)
        case 3: bytes.append(contentsOf: Array([".json", "/", ".sig", "x"].randomElement(using: &generator)!.utf8))
        default:
            let text = path.replacingOccurrences(
                of: ["manifests", "mandates", "batches", "log", ".json", "/0", "/a"].randomElement(using: &generator)!,
                with: ["mandates", "manifests", "batch", "logs", ".sig", "/1", "/b"].randomElement(using: &generator)!)
            return text
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func locateReadsEveryPathAsTheOracleDoes() {
        var generator = SeededGenerator(state: 0x5EED_0F9A_7B)
        let valid = Self.validPaths(count: 3_000, generator: &generator)
        var checked = 0
        var located = 0
        for path in valid {
            for candidate in [path] + (0..<4).map({ _ in Self.nearMiss(of: path, generator: &generator) }) {
                let expected = Self.oracle(candidate)
                let found = LedgerLayout.locate(candidate)
                #expect(found?.meaning == expected?.meaning && found?.batch == expected?.batch, "\(candidate)")
                checked += 1
                if found != nil { located += 1 }
            }
        }
        // Both outcomes are exercised in volume: every valid path, and near misses that are refused.
        #expect(located >= valid.count)
        #expect(checked - located >= valid.count * 3)
    }
}
