import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore

/// The conformance suite ships as data, is what its generator makes, and `verify` gives every
/// outcome its manifest states.
@Suite("Conformance suite")
struct ConformanceSuiteTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("conformance").path

    static var manifest: JSONObject {
        get throws {
            try CanonicalJSON.parse(Array(try Data(contentsOf: URL(fileURLWithPath: root + "/manifest.json"))))
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let ledger: String
        let exit: Int32
        let authentic: Bool
        let policy: String?
        let kind: String?
        var testDescription: String { name }
    }

    static let cases: [Case] = {
        guard let manifest = try? manifest, case .array(let list)? = manifest["cases"] else { return [] }
        return list.compactMap { value in
            guard case .object(let object) = value, case .object(let expect)? = object["expect"],
                case .integer(let exit)? = expect["exit"]
            else { return nil }
            return Case(
                name: object["name"]?.stringValue ?? "", ledger: object["ledger"]?.stringValue ?? "",
                exit: Int32(exit), authentic: expect["authentic"] == .bool(true),
                policy: expect["policy"]?.stringValue, kind: expect["kind"]?.stringValue)
        }
    }()

    /// `make conformance` sets ONYM_LEDGER_CONFORMANCE_OUT to the source tree's `conformance/` to regenerate it;
    /// otherwise the suite is generated in a scratch folder and compared with the checked-in one.
    @Test func theGeneratorMakesTheCheckedInSuite() throws {
        if let out = ProcessInfo.processInfo.environment["ONYM_LEDGER_CONFORMANCE_OUT"] {
            try ConformanceSuite.generate(into: out)
            return
        }
        let scratch = ScratchDirectory()
        let generated = try ConformanceSuite.generate(into: scratch.path("conformance"))
        #expect(generated == (try Self.manifest), "conformance/ is stale: run make conformance")
    }

    @Test func everyAttackClassHasACase() throws {
        let classes = Set(TamperCorpus.attacks.filter { !$0.afterCheckpoint && !$0.accepted }.map { $0.policy })
        #expect(Set(Self.cases.compactMap(\.policy)) == classes)
        #expect(Self.cases.first?.name == "good")
    }

    /// The runner another implementation uses (`conformance/run`) passes onym-ledger on every case, and fails a
    /// verifier that says "verified" to everything.
    @Test func theRunnerScriptJudgesAVerifier() throws {
        let scratch = ScratchDirectory()
        let command =
            "\"\(CLI.binary)\" verify \"$0\" --trust \"$1\" --at \"$2\" --full --json --state \"\(scratch.path("s"))-$$\""
        let ours = runProcess("python3", [Self.root + "/run", "--json", "--", "sh", "-c", command])
        #expect(ours.status == 0, "\(ours.stdout) \(ours.stderr)")
        #expect(ours.stdout.contains("conformance: \(Self.cases.count) passed, 0 failed"), "\(ours.stdout)")
        let credulous = runProcess("python3", [Self.root + "/run", "--", "true"])
        #expect(credulous.status == 1)
        let accepted = Self.cases.filter { $0.exit == 0 }.count
        #expect(credulous.stdout.contains("conformance: \(accepted) passed, \(Self.cases.count - accepted) failed"))
    }

    @Test(arguments: cases)
    func verifyGivesTheManifestsOutcome(_ testCase: Case) throws {
        let scratch = ScratchDirectory()
        let ledger = scratch.path("ledger.git")
        #expect(runProcess("cp", ["-a", Self.root + "/" + testCase.ledger, ledger]).status == 0)
        let result = CLI.run([
            "verify", ledger, "--trust", Self.root + "/trust.pub", "--at", ConformanceSuite.at, "--json", "--full",
            "--state", scratch.path("state"),
        ])
        #expect(result.status == testCase.exit, "\(testCase.name): \(result.stdout.prefix(600)) \(result.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        #expect(report["authentic"] as? Bool == testCase.authentic)
        let findings = report["findings"] as? [[String: Any]] ?? []
        guard let policy = testCase.policy else {
            #expect(findings.isEmpty, "\(findings)")
            return
        }
        let kinds = Set(findings.filter { $0["policy"] as? String == policy }.compactMap { $0["kind"] as? String })
        #expect(kinds == [testCase.kind ?? ""], "\(testCase.name): \(findings.map { $0["policy"] ?? "" })")
    }
}
