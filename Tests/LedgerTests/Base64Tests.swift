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
}
