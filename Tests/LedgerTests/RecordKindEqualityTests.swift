import LedgerFormat
import LedgerTestSupport
import Testing

/// The stored kinds are final classes (docs/DECISIONS.md, "Every stored kind is a final class of constants"):
/// the `Equatable` ones must still be equal by what they say, never by which instance holds it — a replay
/// state saved and loaded again compares equal to the one in memory only so.
@Suite("Record kinds: equal by their objects, not their instances")
struct RecordKindEqualityTests {
    static let interface = FixtureInterface()
    static let authority = FixtureAuthority()

    static func attempt(at time: String) -> JSONObject {
        FixtureRecords.statusAttempt(interface: interface, authority: authority.componentId, attemptedAt: time)
    }

    static func grant(caseId: String) -> JSONObject {
        FixtureRecords.grant(
            "onym-unban-grant-v1", caseId: caseId,
            grantee: Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x21))!.publicKey.onymKey,
            authority: authority,
            issuedAt: "2026-08-12T01:00:00Z")
    }

    static func redemption(from binding: String) -> JSONObject {
        FixtureRecords.redemption(
            of: grant(caseId: "case-ban"), mandateRef: SHA256.hash(Array("mandate".utf8)), from: binding, to: nil,
            redeemedAt: "2026-08-13T01:00:00Z")
    }

    /// Two decodes of one object: two instances, equal; a decode of an object that differs: not equal.
    func expectEqualByObject<Kind: AnyObject & Equatable>(
        _ decode: (String) throws -> Kind, _ value: String, _ otherValue: String
    ) throws {
        let first = try decode(value)
        let again = try decode(value)
        #expect(first !== again)
        #expect(first == again)
        #expect(try first != decode(otherValue))
    }

    @Test func statusAttempts() throws {
        try expectEqualByObject(
            { try StatusAttempt(json: Self.attempt(at: $0)) }, "2026-08-10T01:00:00Z", "2026-08-10T01:00:01Z")
    }

    @Test func grants() throws {
        try expectEqualByObject({ try Grant(json: Self.grant(caseId: $0)) }, "case-ban", "case-other")
    }

    @Test func redemptions() throws {
        try expectEqualByObject({ try Redemption(json: Self.redemption(from: $0)) }, "enrollment:a", "enrollment:b")
    }

    @Test func manifestsByTheirBytes() throws {
        try expectEqualByObject(
            { try AuthorityManifest(rawBytes: FixtureAuthority(validUntil: $0).manifestBytes) },
            "2027-08-31T23:59:59Z", "2027-09-30T23:59:59Z")
    }
}
