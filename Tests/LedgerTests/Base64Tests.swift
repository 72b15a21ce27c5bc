import Foundation
import Testing

@testable import LedgerFormat
import LedgerStore

@Suite("Base64 (strict, padded, standard)")
struct Base64Tests {
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(_ plain: String, _ encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test(arguments: ["Zg", "Zg=", "Zh==", "Zm9=", "Z===", "Zm9v\n", " Zm9v", "Zm-v", "Zm_v", "Zg==Zg==", "=Zg="])
    func rejects(_ text: String) {
        #expect(Base64.decode(text) == nil)
    }

    /// The strict reading against Foundation's: a text is accepted exactly when Foundation decodes it and
    /// encodes its bytes back to the same text (one encoding for each byte string), and then as the same
    /// bytes. Texts drawn from the alphabet, `=` and stray bytes, mostly near valid (a valid encoding with
    /// one symbol changed), and the encodings of random byte strings, which must also match Foundation's.
    @Test func theStrictReadingIsFoundationsReadingOfItsOwnEncodings() {
        var random = SeededGenerator(state: 0xB64)
        let symbols = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let strays = Array("=-_ \n.\u{0}".utf8) + [0x80, 0xFF]
        func oracle(_ text: [UInt8]) -> [UInt8]? {
            let string = String(decoding: text, as: UTF8.self)
            guard Array(string.utf8) == text, let data = Data(base64Encoded: string),
                data.base64EncodedString() == string
            else { return nil }
            return Array(data)
        }
        var accepted = 0
        for round in 0..<20_000 {
            let plain = (0..<Int.random(in: 0...70, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            let encoded = Base64.encode(plain)
            if round < 2_000 {
                #expect(encoded == Data(plain).base64EncodedString())
                #expect(Base64.decode(encoded) == plain)
            }
            var text = Array(encoded.utf8)
            if !text.isEmpty, round % 4 != 0 {
                let position = Int.random(in: 0..<text.count, using: &random)
                text[position] =
                    round % 3 == 0
                    ? strays.randomElement(using: &random)! : symbols.randomElement(using: &random)!
            }
            if round % 10 == 0 { text = text.dropLast(Int.random(in: 0...3, using: &random)) }
            let expected = oracle(text)
            #expect(Base64.decode(bytes: text) == expected, "\(String(decoding: text, as: UTF8.self))")
            if expected != nil { accepted += 1 }
        }
        // Both sides of the rule are exercised.
        #expect(accepted > 5_000 && accepted < 18_000, "\(accepted) accepted")
    }
}
