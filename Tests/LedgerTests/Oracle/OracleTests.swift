import Foundation
import Testing

@testable import LedgerFormat
import LedgerStore

/// The fold against an independent oracle (``EventOracle``) on seeded, generated verdict histories,
/// compared at every instant where something changes and one second either side; and the named
/// vectors under `Vectors/fold/` (issue findings and shrunk disagreements) through both.
///
/// `make test` runs a fixed seed and a small budget; `make oracle` runs a long one
/// (`ONYM_ORACLE_SEQUENCES`, `ONYM_ORACLE_SEED`).
@Suite("Fold vs. oracle")
struct OracleTests {
    static var budget: Int { Int(ProcessInfo.processInfo.environment["ONYM_ORACLE_SEQUENCES"] ?? "") ?? 400 }
    static var seed: UInt64 { UInt64(ProcessInfo.processInfo.environment["ONYM_ORACLE_SEED"] ?? "") ?? 0x0_0ED_1E5 }

    /// The first instant where fold and oracle disagree, if any.
    static func disagreement(_ scenario: FoldScenario, facts: [VerdictFact]? = nil) -> (
        at: Instant, fold: EventOracle.Answer, oracle: EventOracle.Answer
    )? {
        let facts = facts ?? scenario.facts().facts
        let effects = scenario.effects()
        for instant in FoldScenario.instants(facts, effects) {
            let folded = DeviceFold.evaluate(facts, revocations: effects, at: instant)
            let fold = EventOracle.Answer(
                bits: folded.bits, authorizedBy: folded.authorizedBy, governingBan: folded.governingBan?.ref,
                openedBy: folded.openCases.map(\.ref))
            let oracle = EventOracle.answer(facts, revocations: effects, at: instant)
            if fold != oracle { return (instant, fold, oracle) }
        }
        return nil
    }

    /// Removes verdicts and revocations one at a time while the disagreement stays.
    static func shrink(_ scenario: FoldScenario) -> FoldScenario {
        var smallest = scenario
        var progress = true
        while progress {
            progress = false
            for index in smallest.verdicts.indices.reversed() {
                var candidate = smallest
                candidate.verdicts.remove(at: index)
                if disagreement(candidate) != nil {
                    smallest = candidate
                    progress = true
                    break
                }
            }
            if !progress, !smallest.revocations.isEmpty {
                var candidate = smallest
                candidate.revocations.removeAll()
                if disagreement(candidate) != nil {
                    smallest = candidate
                    progress = true
                }
            }
        }
        return smallest
    }

    @Test func foldAgreesWithTheOracleOnGeneratedHistories() {
        var generator = FoldScenarioGenerator(seed: Self.seed)
        var instantsCompared = 0
        for number in 0..<Self.budget {
            let scenario = generator.scenario(name: "seed-\(Self.seed)-\(number)")
            let (facts, _) = scenario.facts()
            instantsCompared += FoldScenario.instants(facts, scenario.effects()).count
            guard let found = Self.disagreement(scenario, facts: facts) else { continue }
            let minimal = Self.shrink(scenario)
            let at = Self.disagreement(minimal)!
            Issue.record(
                """
                fold and oracle disagree at \(found.at): fold \(found.fold), oracle \(found.oracle).
                Minimal sequence (disagreeing at \(at.at): fold \(at.fold), oracle \(at.oracle)) — keep it as \
                Vectors/fold/<name>.json with the checks the rules give:
                \(minimal)
                """)
            return
        }
        print("oracle: \(Self.budget) sequences, \(instantsCompared) instants compared, seed \(Self.seed)")
        #expect(instantsCompared > Self.budget)
    }

    static func vectors() -> [FoldScenario] {
        let folder = Vectors.url("fold")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map {
            try! JSONDecoder().decode(FoldScenario.self, from: Data(contentsOf: folder.appendingPathComponent($0)))
        }
    }

    @Test func thereAreNamedVectors() { #expect(Self.vectors().count >= 6) }

    @Test(arguments: vectors().map(\.name))
    func namedVector(_ name: String) throws {
        let scenario = try #require(Self.vectors().first { $0.name == name })
        let (facts, refs) = scenario.facts()
        let effects = scenario.effects()
        #expect(!scenario.checks.isEmpty)
        for check in scenario.checks {
            let at = try #require(Instant.parse(check.at))
            let expectedBy = refs[check.authorizedBy]?.hex ?? check.authorizedBy
            let fold = DeviceFold.evaluate(facts, revocations: effects, at: at)
            #expect(fold.bits.description == check.bits, "fold bits at \(check.at)")
            #expect(fold.authorizedBy == expectedBy, "fold authorizedBy at \(check.at)")
            let oracle = EventOracle.answer(facts, revocations: effects, at: at)
            #expect(oracle.bits.description == check.bits, "oracle bits at \(check.at)")
            #expect(oracle.authorizedBy == expectedBy, "oracle authorizedBy at \(check.at)")
        }
        #expect(Self.disagreement(scenario) == nil)
    }
}
