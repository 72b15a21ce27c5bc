import LedgerFormat
import LedgerTestSupport
import Testing

/// The stored kinds are final classes (docs/DECISIONS.md, "Every stored kind is a final class of constants"):
/// the `Equatable` ones must still be equal by what they say, never by which instance holds it — a replay
/// state saved and loaded again compares equal to the one in memory only so — and every kind states the times
/// the window rule constrains through `StoredRecord`, which no longer casts a record to find them.
@Suite("Record kinds as classes: equal by their objects, their times through StoredRecord")
struct RecordKindsAsClassesTests {
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

    /// Every kind states its times through `StoredRecord` (a default of none): the time window rule reads
    /// them there, so a kind whose own `timedFields` were not the protocol's would drop out of the rule silently.
    @Test func eachKindStatesItsOwnTimesThroughStoredRecord() throws {
        let user = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x21))!
        let authority = Self.authority
        let mandateObject = FixtureRecords.mandate(
            user: user, interface: Self.interface, authority: authority,
            classes: [FixtureClass.referenceClasses[0].classId], deviceBinding: "enrollment:a",
            acceptedAt: "2026-08-01T00:00:00Z")
        let mandate = try Mandate(json: mandateObject)
        let verdict = FixtureRecords.verdict(
            .openCase, caseId: "case-a", mandate: mandate, authority: authority,
            classId: FixtureClass.referenceClasses[0].classId, decidedAt: "2026-08-02T00:00:00Z")
        let receipt = VerdictReceipt(
            verdictRef: SHA256.hash(Array("verdict".utf8)), status: .queued,
            receivedAt: Instant.parse("2026-08-03T00:00:00Z")!)
        let objects: [(any StoredRecord.Type, JSONObject, [String])] = [
            (Mandate.self, mandateObject, ["acceptedAt"]),
            (Verdict.self, verdict, []),
            (VerdictReceipt.self, receipt.json, ["receivedAt"]),
            (StatusAttempt.self, Self.attempt(at: "2026-08-10T01:00:00Z"), ["attemptedAt"]),
            (
                CompromiseReport.self,
                FixtureRecords.compromiseReport(
                    authority: authority, compromisedAt: "2026-08-04T00:00:00Z", reportedAt: "2026-08-05T00:00:00Z"),
                ["reportedAt", "compromisedAt"]
            ),
            (
                RevocationDetermination.self,
                FixtureRecords.revocation(
                    interface: Self.interface, authority: authority.componentId, trigger: "authority-compromise",
                    effectiveAt: "2026-08-06T00:00:00Z", determinedAt: "2026-08-07T00:00:00Z",
                    evidence: [SHA256.hash(Array("report".utf8))]),
                ["effectiveAt", "determinedAt"]
            ),
            (Grant.self, Self.grant(caseId: "case-ban"), ["issuedAt"]),
            (Redemption.self, Self.redemption(from: "enrollment:a"), ["redeemedAt"]),
            (EnforcementProfile.self, FixtureProfile.appleDeviceCheck, []),
        ]
        for (kind, object, expected) in objects {
            let record: any StoredRecord = try kind.init(storedBytes: CanonicalJSON.encode(object), json: object)
            #expect(Set(record.timedFields.map(\.name)) == Set(expected), "\(kind.kindName)")
        }
        let manifest: any StoredRecord = try AuthorityManifest(rawBytes: authority.manifestBytes)
        #expect(manifest.timedFields.isEmpty)
    }
}
