import Foundation
import Testing

/// The oracle's own parsers against fixed outside values (FIPS 180-2 digests, the onym-wire §6.2
/// derived refs, the canonical-JSON vectors, epoch seconds computed by Python's `datetime`), so that
/// the oracle is checked by something other than agreement with the code under test.
@Suite("Oracle: its own parsers")
struct OracleSelfTests {
    @Test func sha256MatchesTheStandardDigests() {
        #expect(OracleSHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            OracleSHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            OracleSHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            OracleSHA256.hex([UInt8](repeating: 0x61, count: 1000))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    /// onym-wire §6.2: the derived verdict's signing bytes and its ref, from the bytes with `signature`.
    @Test func verdictRefMatchesTheDerivedReferenceVector() throws {
        let signingBytes =
            #"{"accusedKeys":["onym:key:6e7a1cdd29b0b78fd13af4c5598feff4ef2a97166e3ca6f2e4fbfccd80505bf1"],"appealDeadline":"2026-09-17T00:00:00Z","authority":"onym:component:onym-authority","banExpires":"2026-12-16T00:00:00Z","caseId":"case-1","classId":"unsolicited-pornography","decidedAt":"2026-08-18T00:00:00Z","deviceBinding":"enrollment:00000000-0000-4000-8000-000000000000","disposition":"ban","executeAfter":"2026-09-17T00:00:00Z","final":false,"mandateRef":"1e45818186bf94f95785175e1e206085908dd6d10099b9d5a51f3df6af73f3ce","marks":{"banned":true,"case-open":false},"reasoning":"sha256:abababababababababababababababababababababababababababababababab","verdictVersion":1}"#
        var object = try OracleJSON.object(Array(signingBytes.utf8), "vector")
        #expect(Array(try OracleJSON.canonical(object).utf8) == Array(signingBytes.utf8))
        object["signature"] = "DnzrnAup6DKHu6x3i5YULnp7EJcO0ajhmvhdYelCDeMzbR0DbmKnl9Vc8fExi/K1iHiKEeu0ebve0vEubqawBw=="
        #expect(
            try OracleJSON.contentAddress(object, omitting: "signature")
                == "ccc93e2e4b7c840ca0a0a15d3327de1ffae4c5256b6bcce463bc6327e0403ebf")
    }

    /// The canonical-JSON vectors, compared as bytes — all but the one a Swift dictionary cannot hold
    /// (two keys that differ only by Unicode canonical equivalence merge in it).
    @Test func canonicalFormMatchesTheCanonicalVectors() throws {
        var checked = 0
        for testCase in Vectors.canonicalCases() where testCase.name != "precomposed-and-decomposed-keys-differ" {
            guard let expected = testCase.expected else { continue }
            let object = try OracleJSON.object(testCase.input, testCase.name)
            #expect(Array(try OracleJSON.canonical(object).utf8) == expected, "\(testCase.name)")
            checked += 1
        }
        #expect(checked >= 20)
    }

    @Test func timestampsParseWithOffsetsAndFractions() throws {
        #expect(try OracleTime.parse("2026-08-08T12:00:00Z") == OracleInstant(seconds: 1_786_190_400))
        #expect(try OracleTime.parse("2026-08-08t12:00:00z") == OracleInstant(seconds: 1_786_190_400))
        #expect(try OracleTime.parse("2026-08-08T14:00:00+02:00") == OracleInstant(seconds: 1_786_190_400))
        #expect(
            try OracleTime.parse("2026-03-02T14:52:11.154998823+14:00")
                == OracleInstant(seconds: 1_772_412_731, nanos: 154_998_823))
        #expect(try OracleTime.parse("1969-12-31T23:59:59.5-00:30") == OracleInstant(seconds: 1799, nanos: 500_000_000))
        #expect(try OracleTime.parse("2024-02-29T23:59:59-23:59") == OracleInstant(seconds: 1_709_337_539))
        for bad in [
            "2026-02-29T00:00:00Z", "2026-08-08T12:00:60Z", "2026-08-08T12:00:00.1234567890Z", "2026-08-08T12:00:00",
            "2026-08-08 12:00:00Z", "2026-08-08T12:00:00.Z", "2026-08-08T12:00:00+2:00", "2026-13-01T00:00:00Z",
        ] {
            #expect(throws: OracleTime.Malformed.self, "\(bad)") { try OracleTime.parse(bad) }
        }
    }

    @Test func renderingSaysTheInstantItWasGiven() throws {
        let instant = OracleInstant(seconds: 1_772_412_731, nanos: 154_998_823)
        for offset: Int64 in [0, 60, -300, 840, -1439] {
            for lowercase in [false, true] {
                let text = OracleTime.render(instant, offsetMinutes: offset, fractionDigits: 9, lowercase: lowercase)
                #expect(try OracleTime.parse(text) == instant, "\(text)")
            }
        }
        #expect(
            OracleTime.render(instant, offsetMinutes: 840, fractionDigits: 9) == "2026-03-02T14:52:11.154998823+14:00")
        #expect(
            OracleTime.render(OracleInstant(seconds: 1799, nanos: 500_000_000), offsetMinutes: -30)
                == "1969-12-31T23:59:59.5-00:30")
    }

    /// onym-wire §4.4's accept and reject lists.
    @Test func durationsAreWholeDays() {
        #expect(OracleTime.days("P7D") == 7)
        #expect(OracleTime.days("P+7D") == 7)
        #expect(OracleTime.days("P007D") == 7)
        for bad in ["", "P", "PD", "P0D", "P-1D", "PT1H", "90D", "P90", "permanent", "P 7D"] {
            #expect(OracleTime.days(bad) == nil, "\(bad)")
        }
    }
}
