import Foundation
import Testing

@testable import LedgerFormat
import LedgerStore

/// The fold against an independent oracle (``EventOracle``, which reads the raw records with its own
/// parsers) on seeded, generated verdict histories, compared at every instant where either side sees a
/// change and one second either side; and the named vectors under `Vectors/fold/` (reported cases and
/// shrunk disagreements) through both.
///
/// `make test` runs a fixed seed and a small budget; `make oracle` runs a long one
/// (`ONYM_ORACLE_SEQUENCES`, `ONYM_ORACLE_SEED`).
@Suite("Fold vs. oracle")
struct OracleTests {
    static var budget: Int { Int(ProcessInfo.processInfo.environment["ONYM_ORACLE_SEQUENCES"] ?? "") ?? 400 }
    static var seed: UInt64 { UInt64(ProcessInfo.processInfo.environment["ONYM_ORACLE_SEED"] ?? "") ?? 0x0_0ED_1E5 }

    struct Disagreement {
        var at: OracleInstant
        var fold: EventOracle.Answer
        var oracle: EventOracle.Answer
    }

    struct Comparison {
        /// The first instant where the fold's answer is not the oracle's.
        var disagreement: Disagreement?
        var instants = 0
    }

    /// The fold's answer at `instant`, in the oracle's terms.
    static func fold(
        _ facts: [VerdictFact], _ effects: [DesignationRevocation.Effect], at instant: OracleInstant
    ) -> EventOracle.Answer {
        let folded = DeviceFold.evaluate(facts, revocations: effects, at: instant.product)
        return EventOracle.Answer(
            caseOpen: folded.bits.caseOpen, banned: folded.bits.banned, authorizedBy: folded.authorizedBy,
            governingBan: folded.governingBan?.ref.hex, openedBy: folded.openCases.map(\.ref.hex).sorted())
    }

    /// Fold and oracle at every instant where either sees a change, and one second either side. An
    /// oracle that cannot read the records (its verdict ref differing from the product's receipt, say)
    /// is a disagreement at the epoch.
    static func compare(_ scenario: FoldScenario) -> Comparison {
        let rendered = scenario.render()
        let effects = scenario.effects()
        let oracle: EventOracle
        do { oracle = try scenario.oracle(rendered) } catch {
            let unreadable = EventOracle.Answer(
                caseOpen: false, banned: false, authorizedBy: "\(error)", governingBan: nil, openedBy: [])
            return Comparison(
                disagreement: Disagreement(at: OracleInstant(seconds: 0), fold: unreadable, oracle: unreadable))
        }
        let fromFold = FoldScenario.instants(rendered.facts, effects).map(OracleInstant.init)
        let points = Set(
            fromFold + oracle.changeInstants.flatMap { [$0.adding(seconds: -1), $0, $0.adding(seconds: 1)] })
        var comparison = Comparison(instants: points.count)
        for instant in points.sorted() {
            let fold = Self.fold(rendered.facts, effects, at: instant)
            let expected = oracle.answer(at: instant)
            guard fold != expected else { continue }
            comparison.disagreement = Disagreement(at: instant, fold: fold, oracle: expected)
            break
        }
        return comparison
    }

    /// Removes verdicts and revocations, then signed deadlines, one at a time while `keeps` holds.
    static func shrink(_ scenario: FoldScenario, while keeps: (Comparison) -> Bool) -> FoldScenario {
        var smallest = scenario
        var progress = true
        while progress {
            var candidates: [FoldScenario] = smallest.verdicts.indices.reversed().map { index in
                var candidate = smallest
                candidate.verdicts.remove(at: index)
                return candidate
            }
            candidates += smallest.revocations.indices.map { index in
                var candidate = smallest
                candidate.revocations.remove(at: index)
                return candidate
            }
            candidates += smallest.verdicts.indices.filter { smallest.verdicts[$0].deadline != nil }.map { index in
                var candidate = smallest
                candidate.verdicts[index].deadline = nil
                return candidate
            }
            progress = false
            for candidate in candidates where keeps(compare(candidate)) {
                smallest = candidate
                progress = true
                break
            }
        }
        return smallest
    }

    /// The report of a shrunk case: what each side says, and the scenario to keep as a vector.
    static func report(_ found: Disagreement, shrunk: FoldScenario, _ at: Disagreement) -> String {
        """
        fold and oracle disagree at \(found.at): fold \(found.fold), oracle \(found.oracle).
        Minimal sequence (disagreeing at \(at.at): fold \(at.fold), oracle \(at.oracle)) — keep it as \
        Vectors/fold/<name>.json with the checks the rules give:
        \(shrunk)
        """
    }

    @Test func foldAgreesWithTheOracleOnGeneratedHistories() {
        var generator = FoldScenarioGenerator(seed: Self.seed)
        var instantsCompared = 0
        for number in 0..<Self.budget {
            let scenario = generator.scenario(name: "seed-\(Self.seed)-\(number)")
            let comparison = Self.compare(scenario)
            instantsCompared += comparison.instants
            guard let found = comparison.disagreement else { continue }
            let minimal = Self.shrink(scenario) { $0.disagreement != nil }
            Issue.record(Comment(rawValue: Self.report(found, shrunk: minimal, Self.compare(minimal).disagreement!)))
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
        let rendered = scenario.render()
        let oracle = try scenario.oracle(rendered)
        let oracleRefs = Dictionary(zip(scenario.verdicts.map(\.id), oracle.refs)) { first, _ in first }
        let effects = scenario.effects()
        #expect(!scenario.checks.isEmpty)
        for check in scenario.checks {
            let at = try OracleTime.parse(check.at)
            let fold = Self.fold(rendered.facts, effects, at: at)
            #expect(fold.bits == check.bits, "fold bits at \(check.at)")
            #expect(
                fold.authorizedBy == rendered.refs[check.authorizedBy]?.hex ?? check.authorizedBy, "fold at \(check.at)"
            )
            let expected = oracle.answer(at: at)
            #expect(expected.bits == check.bits, "oracle bits at \(check.at)")
            #expect(
                expected.authorizedBy == oracleRefs[check.authorizedBy] ?? check.authorizedBy, "oracle at \(check.at)")
        }
        #expect(Self.compare(scenario).disagreement == nil)
    }
}

extension OracleInstant {
    /// The same instant as the product's type.
    var product: Instant { Instant(seconds: numericCast(seconds), nanoseconds: numericCast(nanos)) }

    init(_ instant: Instant) {
        self.init(seconds: numericCast(instant.seconds), nanos: numericCast(instant.nanoseconds))
    }
}
