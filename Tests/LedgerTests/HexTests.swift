import Foundation
import Testing

@testable import LedgerFormat

/// Hex is how every hash and key reaches a file or a person: checked against Foundation's `%02x` and
/// `UInt8(_:radix:)`, written another way.
@Suite("Hex (lowercase, the ledger's rendering of hashes)")
struct HexTests {
    /// Foundation's rendering, byte by byte.
    static func printf(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// Pairs of digits read by the standard library's integer parser; lowercase only, as the ledger requires.
    static func parsed(_ text: String) -> [UInt8]? {
        let characters = Array(text)
        guard characters.count % 2 == 0, text.utf8.count == characters.count else { return nil }
        guard characters.allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) }) else { return nil }
        return stride(from: 0, to: characters.count, by: 2).map { UInt8(String(characters[$0...$0 + 1]), radix: 16)! }
    }

    @Test func encodingIsPrintfsForRandomBytes() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 2, 20, 31, 32, 33, 64, 200] {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            #expect(Hex.encode(bytes) == Self.printf(bytes))
            #expect(Hex.encode(bytes.lazy.map { $0 }) == Self.printf(bytes), "a sequence without contiguous storage")
            #expect(Hex.decode(Self.printf(bytes)) == bytes)
        }
        #expect(Hex.encode(Array(0...255)) == Self.printf(Array(0...255)))
    }

    @Test func aContentAddressReadsAndWritesItsOwnDigits() throws {
        for _ in 0..<200 {
            let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max) }
            let address = ContentAddress(bytes: bytes)
            #expect(address.hex == Self.printf(bytes))
            #expect(ContentAddress(hex: Self.printf(bytes)) == address)
            #expect(ContentAddress(hexBytes: Array(Self.printf(bytes).utf8)) == address)
            #expect(ContentAddress(hexBytes: Self.printf(bytes).utf8) == address, "UTF-8 without an array")
        }
    }

    @Test(arguments: [
        "0", "abc", "0g", "AB", "aB", "zz", " 00", "00 ", "é0", "0\u{0}", "-1", "+1", "0x", "٣٣",
    ])
    func decodingRefusesWhatIsNotLowercaseHex(_ text: String) {
        #expect(Self.parsed(text) == nil, "the oracle agrees the text is refused")
        #expect(Hex.decode(text) == nil)
        #expect(Hex.decode(text, lowercaseOnly: false) == nil || text.lowercased() != text)
    }

    @Test func uppercaseIsReadOnlyWhenAsked() {
        #expect(Hex.decode("ABcd", lowercaseOnly: false) == [0xAB, 0xCD])
        #expect(Hex.decode("ABcd") == nil)
    }

    @Test func aContentAddressRefusesEveryWrongDigitAndLength() {
        let good = String(repeating: "0123456789abcdef", count: 4)
        #expect(ContentAddress(hex: good) != nil)
        for position in [0, 15, 16, 31, 32, 47, 48, 63] {
            for wrong in ["g", "A", "F", " ", "/", ":", "`", "é"] {
                var characters = Array(good)
                characters[position] = Character(wrong)
                let text = String(characters)
                #expect(ContentAddress(hex: text) == nil, "\(wrong) at \(position)")
                #expect(ContentAddress(hexBytes: Array(text.utf8)) == nil, "\(wrong) at \(position)")
            }
        }
        for length in [0, 62, 63, 65, 66, 128] {
            let text = String(repeating: "a", count: length)
            #expect(ContentAddress(hex: text) == nil)
            #expect(ContentAddress(hexBytes: Array(text.utf8)) == nil)
        }
    }

    /// Every byte value at the first and last digit of each of the address's four words: read as the oracle
    /// reads the digits (a value for 0-9 and a-f, a refusal for anything else, uppercase included).
    @Test func everyByteAtEachWordsEdgesIsReadAsTheOracleReadsIt() {
        let good = Array(String(repeating: "0123456789abcdef", count: 4).utf8)
        for position in [0, 15, 16, 31, 32, 47, 48, 63] {
            for byte in UInt8.min...UInt8.max {
                var digits = good
                digits[position] = byte
                let expected = byte < 0x80 ? Self.parsed(String(decoding: digits, as: UTF8.self)) : nil
                #expect(ContentAddress(hexBytes: digits)?.bytes == expected, "byte \(byte) at \(position)")
            }
        }
    }
}
