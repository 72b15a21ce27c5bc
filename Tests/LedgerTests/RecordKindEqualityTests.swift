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

    @Test func twoDecodesOfOneStatusAttemptAreEqualAndAChangedFieldIsNot() throws {
        let first = try StatusAttempt(json: Self.attempt(at: "2026-08-10T01:00:00Z"))
        let again = try StatusAttempt(json: Self.attempt(at: "2026-08-10T01:00:00Z"))
        let later = try StatusAttempt(json: Self.attempt(at: "2026-08-10T01:00:01Z"))
        #expect(first !== again)
        #expect(first == again)
        #expect(first != later)
    }

    @Test func twoDecodesOfOneGrantAreEqualAndAChangedFieldIsNot() throws {
        let first = try Grant(json: Self.grant(caseId: "case-ban"))
        let again = try Grant(json: Self.grant(caseId: "case-ban"))
        let other = try Grant(json: Self.grant(caseId: "case-other"))
        #expect(first !== again)
        #expect(first == again)
        #expect(first != other)
    }

    @Test func twoDecodesOfOneRedemptionAreEqualAndAChangedFieldIsNot() throws {
        let first = try Redemption(json: Self.redemption(from: "enrollment:a"))
        let again = try Redemption(json: Self.redemption(from: "enrollment:a"))
        let other = try Redemption(json: Self.redemption(from: "enrollment:b"))
        #expect(first !== again)
        #expect(first == again)
        #expect(first != other)
    }

    @Test func twoDecodesOfOneManifestAreEqualAndOtherBytesAreNot() throws {
        let first = try AuthorityManifest(rawBytes: Self.authority.manifestBytes)
        let again = try AuthorityManifest(rawBytes: Self.authority.manifestBytes)
        let other = try AuthorityManifest(rawBytes: FixtureAuthority(validUntil: "2027-09-30T23:59:59Z").manifestBytes)
        #expect(first !== again)
        #expect(first == again)
        #expect(first != other)
    }
}
