import Testing

@testable import LedgerFormat

/// `trimmingWhitespace` (Rust's `str::trim`: Unicode's White_Space property) answers the usual value —
/// ASCII other than whitespace at both ends — without looking up any scalar's properties. The shortcut
/// must agree with the properties on every ASCII byte, and the trim with a scalar-by-scalar one.
@Suite("Trimming whitespace")
struct TrimmingWhitespaceTests {
    @Test func theASCIIShortcutAgreesWithUnicodesWhiteSpaceProperty() {
        for byte in UInt8(0)..<0x80 {
            #expect(
                String.isASCIIOtherThanWhitespace(byte) == !Unicode.Scalar(byte).properties.isWhitespace,
                "byte \(byte)")
        }
        for byte in UInt8(0x80)...0xFF { #expect(!String.isASCIIOtherThanWhitespace(byte)) }
    }

    @Test(arguments: [
        "", " ", "\t\n\u{0B}\u{0C}\r ", "a", " a", "a ", " a b ", "\u{1C}a\u{1F}", "\u{A0}a", "a\u{A0}",
        "\u{85}a\u{2003}", "\u{3000}", "é", " é ", "a\u{0301}", "\u{0301}", "x\u{200B}", "ok\u{2028}",
    ])
    func theTrimIsTheScalarByScalarOne(text: String) {
        var scalars = Array(text.unicodeScalars)
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        var expected = String.UnicodeScalarView()
        expected.append(contentsOf: scalars)
        // Bytes, not `String`'s `==`, which would take `é` for `e` and a combining accent.
        #expect(Array(String(text.trimmingWhitespace).utf8) == Array(String(expected).utf8))
    }
}
