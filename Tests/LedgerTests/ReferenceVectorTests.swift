import Foundation
import Testing

@testable import LedgerFormat
import LedgerStore

/// The vectors of onym-wire.md §6 that the ledger must reproduce byte for byte.
@Suite("Reference vectors (onym-wire.md §6)")
struct ReferenceVectorTests {
    nonisolated(unsafe) static let expected = Vectors.json("reference/expected.json") as! [String: Any]

    private func section(_ name: String) -> [String: Any] { Self.expected[name] as! [String: Any] }

    @Test func derivedMandate() throws {
        let vector = section("mandate")
        let bytes = Vectors.bytes("reference/\(vector["file"] as! String)")
        let mandate = try Mandate(json: try CanonicalJSON.parseCanonical(bytes))
        #expect(mandate.ref.hex == vector["mandateRef"] as! String)
        #expect(mandate.userKey == vector["userKey"] as! String)
        #expect(mandate.userSignatureStatus == .valid)

        // The keys re-derive from the seeds the reference tests use.
        let user = Ed25519.PrivateKey(seed: Hex.decode(vector["userSeedHex"] as! String)!)!
        #expect(user.publicKey.onymKey == vector["userKey"] as! String)
        let root = Hex.decode(vector["interfaceRootSeedHex"] as! String)!
        let interface = InterfaceKeyDerivation.privateKey(root: root, authority: mandate.authority.text, epoch: 0)
        #expect(interface.publicKey.onymKey == vector["interfaceKey"] as! String)
        #expect(mandate.interfaceSignatureStatus(candidates: [interface.publicKey]) == .valid)

        // Signing is deterministic: both signatures reproduce exactly.
        #expect(Base64.encode(user.signature(for: mandate.signingBytes)) == vector["userSignature"] as! String)
        #expect(
            Base64.encode(interface.signature(for: mandate.signingBytes)) == vector["interfaceSignature"] as! String)

        // A different epoch derives a different key, which does not verify.
        let epoch1 = InterfaceKeyDerivation.privateKey(root: root, authority: mandate.authority.text, epoch: 1)
        #expect(epoch1.publicKey != interface.publicKey)
        #expect(mandate.interfaceSignatureStatus(candidates: [epoch1.publicKey]) == .invalid)
        #expect(mandate.interfaceSignatureStatus(candidates: []) == .keyUnknown)
    }

    @Test func derivedBanVerdict() throws {
        let vector = section("verdict")
        let bytes = Vectors.bytes("reference/\(vector["file"] as! String)")
        let verdict = try Verdict(json: try CanonicalJSON.parseCanonical(bytes))
        #expect(verdict.ref.hex == vector["verdictRef"] as! String)
        #expect(verdict.disposition == .ban)
        let operatorKey = try OnymKey.parse(vector["operatorKey"] as! String)
        #expect(verdict.signatureStatus(operatorKey: operatorKey) == .valid)
        let signer = Ed25519.PrivateKey(seed: Hex.decode(vector["operatorSeedHex"] as! String)!)!
        #expect(signer.publicKey == operatorKey)
        #expect(Base64.encode(signer.signature(for: verdict.signingBytes)) == vector["signature"] as! String)
        // Any change to a signed field breaks the signature and the ref.
        var tampered = verdict.json
        tampered.set("banExpires", .string("2026-12-17T00:00:00Z"))
        let forged = try Verdict(json: tampered)
        #expect(forged.ref != verdict.ref)
        #expect(forged.signatureStatus(operatorKey: operatorKey) == .invalid)
    }

    @Test func writeLogChain() throws {
        var previous = WriteLogEntry.genesis
        for (index, row) in (Self.expected["writeLogChain"] as! [[String: Any]]).enumerated() {
            let entry = try WriteLogEntry(
                sequence: Int64(index + 1), recordedAt: row["recordedAt"] as! String,
                deviceBinding: WireString(row["deviceBinding"] as! String),
                authorizedBy: WireString(row["authorizedBy"] as! String),
                caseOpen: row["caseOpen"] as! Bool, banned: row["banned"] as! Bool, outcome: row["outcome"] as! String,
                previousHash: previous)
            #expect(entry.previousHash == row["previousHash"] as! String)
            #expect(entry.entryHash == row["entryHash"] as! String)
            // Round trip through the stored JSON shape keeps the hash and it still recomputes.
            let decoded = try WriteLogEntry(json: try CanonicalJSON.parse(CanonicalJSON.encode(entry.json)))
            #expect(decoded == entry)
            #expect(decoded.recomputedHash == decoded.entryHash)
            previous = entry.entryHash
        }
    }

    @Test func androidChainVariantInsertsFieldsWritten() {
        let apple = WriteLogEntry.chainHash(
            previous: "genesis", recordedAt: "2026-08-08T00:00:00Z", deviceBinding: "d1", authorizedBy: "verdict-a",
            caseOpen: false, banned: true, outcome: "ok")
        let android = WriteLogEntry.chainHash(
            previous: "genesis", recordedAt: "2026-08-08T00:00:00Z", deviceBinding: "d1", authorizedBy: "verdict-a",
            caseOpen: false, banned: true, fieldsWritten: #"{"bitSecond":true}"#, outcome: "ok")
        let preimage = #"genesis|2026-08-08T00:00:00Z|d1|verdict-a|false|true|{"bitSecond":true}|ok"#
        #expect(android == SHA256.hash(Array(preimage.utf8)).hex)
        #expect(android != apple)
    }

    @Test func sessionPayloads() {
        let vector = section("sessionPayloads")
        let inputs = vector["inputs"] as! [String: String]
        let token = Array(inputs["deviceTokenUTF8"]!.utf8)
        let enroll = SessionPayload.bytes(
            context: .enroll, deviceToken: token, userKey: inputs["userKey"]!, timestamp: inputs["timestamp"]!)
        let gate = SessionPayload.bytes(
            context: .gate, deviceToken: token, userKey: inputs["userKey"]!, timestamp: inputs["timestamp"]!,
            reference: inputs["mandateRef"]!)
        let bare = SessionPayload.bytes(
            context: .gate, deviceToken: nil, userKey: inputs["userKey"]!, timestamp: inputs["timestamp"]!)
        #expect(Hex.encode(enroll) == vector["enroll"] as! String)
        #expect(Hex.encode(gate) == vector["gate"] as! String)
        #expect(Hex.encode(bare) == vector["gateNoTokenNoRef"] as! String)
        // Absent and empty tokens are deliberately identical.
        #expect(
            bare
                == SessionPayload.bytes(
                    context: .gate, deviceToken: [], userKey: inputs["userKey"]!, timestamp: inputs["timestamp"]!))
    }

    /// The discovery listing: canonical bytes without `signature` verify; `\/`-escaped bytes do not.
    @Test func discoveryListingSignature() throws {
        let vector = section("discoveryListing")
        let bytes = Vectors.bytes("reference/\(vector["file"] as! String)")
        let object = try CanonicalJSON.parseCanonical(bytes)
        let key = try OnymKey.parse(vector["operatorKey"] as! String)
        let signature = try SignatureEncoding.decode(object["signature"]!.stringValue!, field: "$.signature")
        let unsigned = CanonicalJSON.signingBytes(of: object, omitting: "signature")
        #expect(SHA256.hash(unsigned).hex == vector["canonicalUnsignedSHA256"] as! String)
        #expect(key.isValidSignature(signature, for: unsigned))
        let slashEscaped = String(decoding: unsigned, as: UTF8.self).replacingOccurrences(of: "/", with: "\\/")
        #expect(!key.isValidSignature(signature, for: Array(slashEscaped.utf8)))
    }
}
