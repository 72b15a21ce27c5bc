import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat

/// An input file is recognized by the telling fields its kind declares (`StoredRecord.tellingFields`, and
/// the wire-only shapes' in `RecordKind`): every kind's fixture is its kind and no other's, and an object
/// no kind tells — or more than one — is refused with a clear error naming what to give.
@Suite("Kinds are recognized by their declared telling fields")
struct KindRecognitionTests {
    /// The schema corpus's valid samples, with a grant and its redemption (the corpus has none), by schema.
    static func fixtures() -> [(schema: String, name: String, bytes: [UInt8])] {
        let authority = FixtureAuthority()
        let grant = FixtureRecords.grant(
            "onym-recovery-grant-v1", caseId: "case-1", grantee: "onym:key:" + String(repeating: "ab", count: 32),
            authority: authority, issuedAt: "2026-08-11T00:00:00Z")
        let redemption = FixtureRecords.redemption(
            of: grant, mandateRef: ContentAddress(hashing: [1]), from: "enrollment:1", to: "enrollment:2",
            redeemedAt: "2026-08-11T01:00:00Z")
        return SchemaAgreementTests.corpus().filter(\.shouldBeValid).map { ($0.schema, $0.name, $0.bytes) } + [
            (Grant.kindName, "grant", CanonicalJSON.encode(grant)),
            (Redemption.kindName, "redemption", CanonicalJSON.encode(redemption)),
        ]
    }

    @Test func everyKindsFixtureIsRecognizedAsThatKindAlone() throws {
        let samples = Self.fixtures()
        for kind in StoredRecords.kinds {
            let fixtures = samples.filter { $0.schema == kind.kindName }
            #expect(!fixtures.isEmpty, "a valid fixture of \(kind.kindName)")
            for fixture in fixtures {
                let object = try CanonicalJSON.parse(fixture.bytes)
                #expect(RecordKind.matches(object).map(\.rawValue) == [kind.kindName], "\(fixture.name)")
                #expect(try InputKind.recognize(fixture.bytes).0.stored?.code == kind.code, "\(fixture.name)")
            }
        }
        for sample in samples where RecordKind.allCases.contains(where: { $0.rawValue == sample.schema }) {
            let object = try CanonicalJSON.parse(sample.bytes)
            #expect(RecordKind.matches(object).map(\.rawValue) == [sample.schema], "\(sample.name)")
        }
    }

    @Test(arguments: [
        (#"{"x":1}"#, "no input kind matches this object's fields (name one with --kind)"),
        (
            #"{"mandateVersion":1,"profileVersion":1}"#,
            "this object has the telling fields of profile and mandate (name one with --kind)"
        ),
    ])
    func anObjectNoKindOrTwoKindsTellIsRefusedWithWhatToGive(_ input: String, _ message: String) {
        let result = CLI.run(["inspect", "-"], stdin: Data(input.utf8))
        #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("unknownKind") && result.stderr.contains(message), "\(result.stderr)")
    }
}
