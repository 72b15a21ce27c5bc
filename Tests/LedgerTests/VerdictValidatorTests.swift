import Testing

@testable import LedgerFormat
import LedgerStore
import LedgerTestSupport

/// Reference §4.1 / profile §6.1, one rule per case over generated, really-signed records.
@Suite("Verdict validation")
struct VerdictValidatorTests {
    static let authority = FixtureAuthority(
        classes: FixtureClass.referenceClasses + [FixtureClass("permanent-harm", banTerm: "permanent")])
    static let interface = FixtureInterface()
    static let user = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x05))!
    static let mandate = try! Mandate(
        json: FixtureRecords.mandate(
            user: user, interface: interface, authority: authority,
            classes: ["csam", "unsolicited-pornography", "permanent-harm", "ghost-class"],
            deviceBinding: "enrollment:00000000-0000-4000-8000-000000000000", acceptedAt: "2026-08-08T00:00:00Z"))
    static let decidedAt = "2026-08-18T00:00:00Z"
    static let decided = Instant.parse(decidedAt)!

    enum Expected: Sendable {
        case success(VerdictValidator.Outcome)
        case failure(VerdictValidator.Rejection.Rule)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let disposition: FixtureRecords.Disposition
        let classId: String
        var nowOffset: Int64 = 0
        var edit: @Sendable (inout JSONObject) -> Void = { _ in }
        var resign = true
        let expected: Expected
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "open-case executes", disposition: .openCase, classId: "csam", expected: .success(.execute)),
        Case(name: "dismiss executes", disposition: .dismiss, classId: "csam", expected: .success(.execute)),
        Case(
            name: "non-suspensive ban executes at once", disposition: .ban, classId: "csam",
            expected: .success(.execute)),
        Case(
            name: "suspensive ban is stored until appealDeadline", disposition: .ban,
            classId: "unsolicited-pornography",
            expected: .success(.storeUntil(decided.adding(days: 30)))),
        Case(
            name: "suspensive ban executes once executeAfter passed", disposition: .ban,
            classId: "unsolicited-pornography", nowOffset: 30 * 86_400, expected: .success(.execute)),
        Case(
            name: "permanent class without banExpires", disposition: .ban, classId: "permanent-harm",
            expected: .success(.execute)),
        Case(
            name: "appealDeadline 1 s off is within tolerance", disposition: .ban, classId: "csam",
            edit: { $0.set("appealDeadline", .string("2026-09-17T00:00:01Z")) }, expected: .success(.execute)),
        Case(
            name: "decidedAt exactly 300 s ahead is accepted", disposition: .dismiss, classId: "csam",
            nowOffset: -300, expected: .success(.execute)),
        Case(
            name: "decidedAt with an offset is the same instant", disposition: .ban, classId: "csam",
            edit: { $0.set("decidedAt", .string("2026-08-18T02:00:00+02:00")) }, expected: .success(.execute)),

        Case(
            name: "signature by another key", disposition: .dismiss, classId: "csam",
            edit: { $0.set("caseId", .string("x")) },
            resign: false, expected: .failure(.signatureInvalid)),
        Case(
            name: "decidedAt 301 s ahead", disposition: .dismiss, classId: "csam", nowOffset: -301,
            expected: .failure(.notYetValid)),
        Case(
            name: "authority differs from the mandate's", disposition: .dismiss, classId: "csam",
            edit: { $0.set("authority", .string("onym:component:other")) }, expected: .failure(.authorityMismatch)),
        Case(
            name: "device binding differs", disposition: .dismiss, classId: "csam",
            edit: { $0.set("deviceBinding", .string("enrollment:other")) }, expected: .failure(.deviceBindingMismatch)),
        Case(
            name: "accused keys omit the mandate's user", disposition: .dismiss, classId: "csam",
            edit: { $0.set("accusedKeys", .array([.string("onym:key:" + String(repeating: "a", count: 64))])) },
            expected: .failure(.accusedMismatch)),
        Case(
            name: "class outside the mandate", disposition: .dismiss, classId: "credible-violence",
            expected: .failure(.classOutsideMandate)),
        Case(
            name: "whitespace-only reasoning", disposition: .dismiss, classId: "csam",
            edit: { $0.set("reasoning", .string(" \n\t")) }, expected: .failure(.emptyReasoning)),
        Case(
            name: "open-case with banned mark", disposition: .openCase, classId: "csam",
            edit: { $0.set("marks", .object(JSONObject([("case-open", .bool(true)), ("banned", .bool(true))]))) },
            expected: .failure(.marksMismatch)),
        Case(
            name: "open-case carrying executeAfter", disposition: .openCase, classId: "csam",
            edit: { $0.set("executeAfter", .string("2026-08-18T00:00:00Z")) },
            expected: .failure(.unexpectedSanctionFields)),
        Case(
            name: "final open-case", disposition: .openCase, classId: "csam", edit: { $0.set("final", .bool(true)) },
            expected: .failure(.openCaseFinal)),
        Case(
            name: "dismiss with case-open mark", disposition: .dismiss, classId: "csam",
            edit: { $0.set("marks", .object(JSONObject([("case-open", .bool(true)), ("banned", .bool(false))]))) },
            expected: .failure(.marksMismatch)),
        Case(
            name: "ban of a class the manifest lacks", disposition: .dismiss, classId: "ghost-class",
            edit: {
                $0.set("disposition", .string("ban"))
                $0.set("marks", .object(JSONObject([("case-open", .bool(false)), ("banned", .bool(true))])))
            }, expected: .failure(.classNotInManifest)),
        Case(
            name: "ban with open-case marks", disposition: .ban, classId: "csam",
            edit: { $0.set("marks", .object(JSONObject([("case-open", .bool(true)), ("banned", .bool(false))]))) },
            expected: .failure(.marksMismatch)),
        Case(
            name: "ban without appealDeadline", disposition: .ban, classId: "csam",
            edit: { $0.remove("appealDeadline") }, expected: .failure(.appealDeadline)),
        Case(
            name: "appealDeadline 2 s off", disposition: .ban, classId: "csam",
            edit: { $0.set("appealDeadline", .string("2026-09-17T00:00:02Z")) }, expected: .failure(.appealDeadline)),
        Case(
            name: "suspensive ban executing at decidedAt", disposition: .ban, classId: "unsolicited-pornography",
            edit: { $0.set("executeAfter", .string("2026-08-18T00:00:00Z")) }, expected: .failure(.executeAfter)),
        Case(
            name: "banExpires shifted by a day", disposition: .ban, classId: "csam",
            edit: { $0.set("banExpires", .string("2027-08-19T00:00:00Z")) }, expected: .failure(.banExpires)),
        Case(
            name: "duration ban without banExpires", disposition: .ban, classId: "csam",
            edit: { $0.remove("banExpires") }, expected: .failure(.banExpires)),
        Case(
            name: "permanent ban with banExpires", disposition: .ban, classId: "permanent-harm",
            edit: { $0.set("banExpires", .string("2027-08-18T00:00:00Z")) }, expected: .failure(.banExpires)),
        Case(
            name: "verdict names another mandate", disposition: .dismiss, classId: "csam",
            edit: { $0.set("mandateRef", .string(String(repeating: "0", count: 64))) }, expected: .failure(.noMandate)),
    ]

    @Test(arguments: cases)
    func rule(_ testCase: Case) throws {
        var json = FixtureRecords.verdict(
            testCase.disposition, caseId: "case-1", mandate: Self.mandate, authority: Self.authority,
            classId: testCase.classId, decidedAt: Self.decidedAt, edit: testCase.edit)
        if !testCase.resign {
            // Change a signed field after signing: the signature no longer covers the bytes.
            json.set("caseId", .string("tampered-after-signing"))
        }
        let verdict = try Verdict(json: json)
        let result = VerdictValidator.validate(
            verdict, mandate: Self.mandate, manifest: Self.authority.manifest(),
            now: Self.decided.adding(seconds: testCase.nowOffset))
        switch (result, testCase.expected) {
        case (.success(let outcome), .success(let expected)):
            #expect(outcome == expected)
        case (.failure(let rejection), .failure(let rule)):
            #expect(rejection.rule == rule, "\(rejection)")
        default:
            Issue.record("got \(result), expected \(testCase.expected)")
        }
    }

    @Test func manifestOfAnotherAuthorityIsRefused() throws {
        let other = FixtureAuthority(componentId: "onym:component:other", seed: FixtureSeed.repeated(0x09))
        let verdict = try Verdict(
            json: FixtureRecords.verdict(
                .dismiss, caseId: "case-1", mandate: Self.mandate, authority: Self.authority, classId: "csam",
                decidedAt: Self.decidedAt))
        let result = VerdictValidator.validate(
            verdict, mandate: Self.mandate, manifest: other.manifest(), now: Self.decided)
        guard case .failure(let rejection) = result else { Issue.record("accepted"); return }
        #expect(rejection.rule == .manifestMismatch)
    }

    @Test func receiptStatusFollowsTheOutcome() {
        #expect(VerdictValidator.Outcome.execute.receiptStatus == .queued)
        #expect(VerdictValidator.Outcome.storeUntil(Self.decided).receiptStatus == .stored)
    }
}
