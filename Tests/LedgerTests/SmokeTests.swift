import Testing
@testable import LedgerFormat

@Test func smoke() { #expect(Hex.encode([0, 255]) == "00ff") }
