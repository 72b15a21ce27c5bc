import Foundation
import Testing

@testable import LedgerFormat
import LedgerStore

@Suite("Ed25519 (strict)")
struct Ed25519Tests {
    struct Case: CustomTestStringConvertible, Sendable {
        let id: Int
        let comment: String
        let publicKey: [UInt8]
        let message: [UInt8]
        let signature: [UInt8]
        let valid: Bool
        var testDescription: String { "\(id): \(comment)" }
    }

    static let cases: [Case] = {
        let document = Vectors.json("ed25519.json") as! [String: Any]
        return (document["tests"] as! [[String: Any]]).map { test in
            Case(
                id: test["tcId"] as! Int, comment: test["comment"] as! String,
                publicKey: Hex.decode(test["publicKey"] as! String)!, message: Hex.decode(test["message"] as! String)!,
                signature: Hex.decode(test["signature"] as! String)!, valid: (test["result"] as! String) == "valid")
        }
    }()

    /// The vector file holds every case its generator (scripts/make-ed25519-vectors.py) writes: 21, of which
    /// the three RFC 8032 §7.1 signatures are valid — an empty or truncated file fails here, not silently.
    @Test func theVectorFileHoldsEveryCase() throws {
        let document = try #require(Vectors.json("ed25519.json") as? [String: Any])
        #expect(Self.cases.count == 21)
        #expect(document["numberOfTests"] as? Int == Self.cases.count)
        #expect(Self.cases.map(\.id) == Array(1...21))
        #expect(Self.cases.filter(\.valid).map(\.comment) == (1...3).map { "RFC 8032 7.1 TEST \($0)" })
    }

    @Test(arguments: cases)
    func vector(_ testCase: Case) {
        guard let key = Ed25519.PublicKey(rawRepresentation: testCase.publicKey) else {
            #expect(!testCase.valid, "a valid case must have a 32-byte key")
            return
        }
        #expect(key.isValidSignature(testCase.signature, for: testCase.message) == testCase.valid)
    }

    @Test func rfc8032SigningIsDeterministicAndMatches() {
        let key = Ed25519.PrivateKey(
            seed: Hex.decode("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")!)!
        #expect(
            Hex.encode(key.publicKey.rawRepresentation)
                == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        #expect(
            Hex.encode(key.signature(for: [UInt8]()))
                == "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        )
    }

    @Test func onymKeyReferences() throws {
        let text = "onym:key:d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
        #expect(try OnymKey.parse(text).onymKey == text)
        for bad in [
            "onym:key:", "onym:key:0f0", "onym:key:zz",
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
            "onym:key:D75A980182B10AB7D54BFED3C964073A0EE172F3DAA62325AF021A68F707511A", "onym:key:000fa0ff",
        ] {
            #expect(throws: LedgerFormatError(.invalidKey, "")) { try OnymKey.parse(bad) }
        }
    }

    @Test func signaturesArePaddedStandardBase64Of64Bytes() throws {
        let good = "DnzrnAup6DKHu6x3i5YULnp7EJcO0ajhmvhdYelCDeMzbR0DbmKnl9Vc8fExi/K1iHiKEeu0ebve0vEubqawBw=="
        #expect(try SignatureEncoding.decode(good, field: "$.signature").count == 64)
        #expect(throws: LedgerFormatError(.invalidBase64, "")) {
            try SignatureEncoding.decode(String(good.dropLast(2)), field: "$")  // unpadded
        }
        #expect(throws: LedgerFormatError(.invalidBase64, "")) {
            try SignatureEncoding.decode(good.replacingOccurrences(of: "/", with: "_"), field: "$")  // URL-safe
        }
        #expect(throws: LedgerFormatError(.invalidSignature, "")) {
            try SignatureEncoding.decode(Base64.encode([UInt8](repeating: 1, count: 63)), field: "$")
        }
    }
}
