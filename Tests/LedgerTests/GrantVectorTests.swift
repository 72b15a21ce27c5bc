import Foundation
import Testing

@testable import LedgerFormat

/// The grant vectors (`Vectors/grants/grants.json`, made by scripts/make-grant-vectors.py, independent of
/// this code): `grant_signing_bytes`, `grantRef` and the operator's signature (onym-wire §1.1, §1.3, §2).
@Suite("Grant vectors")
struct GrantVectorTests {
    struct Case: CustomStringConvertible {
        let name: String
        let fields: [String: String]
        var description: String { name }
    }

    static func cases() -> [Case] {
        let file = Vectors.json("grants/grants.json") as! [String: Any]
        return (file["vectors"] as! [[String: Any]]).map { vector in
            Case(name: vector["name"] as! String, fields: vector.compactMapValues { $0 as? String })
        }
    }

    @Test(arguments: cases())
    func signingBytesGrantRefAndSignature(_ vector: Case) throws {
        let grant = try Grant(storedBytes: Array(vector.fields["grant"]!.utf8))
        #expect(grant.signingBytes == Array(vector.fields["signingBytes"]!.utf8))
        #expect(grant.ref.hex == vector.fields["grantRef"])
        #expect(grant.address == grant.ref)
        let seed = ContentAddress(hex: vector.fields["operatorSeed"]!)!.bytes
        let operatorKey = Ed25519.PrivateKey(seed: seed)!
        #expect(operatorKey.publicKey.onymKey == vector.fields["operatorKey"])
        #expect(Base64.encode(operatorKey.signature(for: grant.signingBytes)) == vector.fields["signature"])
        #expect(grant.signatureStatus(keys: [operatorKey.publicKey]) == .valid)
        // The stored bytes are the signed grant's canonical JSON.
        #expect(grant.storedBytes == Array(vector.fields["grant"]!.utf8))
        // textconv names the kind and its content address, the grantRef.
        let review = ReviewRendering.render(grant.storedBytes)
        #expect(review.hasPrefix("# onym-ledger: grant\n# content address \(vector.fields["grantRef"]!)\n"))
    }
}
