import Foundation
import Testing

@testable import LedgerFormat
import LedgerStore

/// The fold against an independent oracle (``EventOracle``, which reads the raw records with its own
/// parsers) on seeded, generated histories — verdicts, revocations and redeemed grants (F12) — compared on
/// every binding they name, at every instant where either side sees a change and one second either side;
/// and the named vectors under `Vectors/fold/` (reported cases and shrunk disagreements) through both.
///
/// `make test` runs a fixed seed and a small budget; `make oracle` runs a long one
/// (`ONYM_ORACLE_SEQUENCES`, `ONYM_ORACLE_SEED`).
@Suite("Fold vs. oracle")
struct OracleTests {
    static var budget: Int { Int(ProcessInfo.processInfo.environment["ONYM_ORACLE_SEQUENCES"] ?? "") ?? 400 }
    static var seed: UInt64 { UInt64(ProcessInfo.processInfo.environment["ONYM_ORACLE_SEED"] ?? "") ?? 0x0_0ED_1E5 }

    struct Disagreement {
        var at: OracleInstant
        var on = FoldScenario.binding
        var fold: EventOracle.Answer
        var oracle: EventOracle.Answer
    }

    struct Comparison {
        /// The first instant where the fold's answer is not the oracle's.
        var disagreement: Disagreement?
        var instants = 0
    }

    /// The fold's answer for `binding` at `instant`, in the oracle's terms. As the replay calls it, the fold
    /// gets the facts stored on `binding` and on every binding a recovery moves something from into it
    /// (`GrantRedemption.sources`), and places them itself.
    static func fold(
        _ rendered: FoldScenario.Rendered, _ effects: [DesignationRevocation.Effect], on binding: String,
        at instant: OracleInstant
    ) -> EventOracle.Answer {
        let sources = Set(GrantRedemption.sources(of: WireString(binding), rendered.effects))
        let folded = DeviceFold.evaluate(
            rendered.facts.filter { sources.contains($0.deviceBinding) }, revocations: effects,
            redemptions: rendered.effects, on: WireString(binding), at: instant.product)
        return EventOracle.Answer(
            caseOpen: folded.bits.caseOpen, banned: folded.bits.banned, authorizedBy: folded.authorizedBy,
            governingBan: folded.governingBan?.ref.hex, openedBy: folded.openCases.map(\.ref.hex).sorted())
    }

    /// Fold and oracle on every binding the scenario names, at every instant where either sees a change,
    /// and one second either side. An oracle that cannot read the records (its verdict ref differing from
    /// the product's receipt, say) is a disagreement at the epoch.
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
        let fromFold = FoldScenario.instants(rendered.facts, effects, rendered.effects).map(OracleInstant.init)
        let points = Set(
            fromFold + oracle.changeInstants.flatMap { [$0.adding(seconds: -1), $0, $0.adding(seconds: 1)] })
        let bindings = scenario.bindings
        var comparison = Comparison(instants: points.count * bindings.count)
        for binding in bindings {
            for instant in points.sorted() {
                let fold = Self.fold(rendered, effects, on: binding, at: instant)
                let expected = oracle.answer(at: instant, on: binding)
                guard fold != expected else { continue }
                comparison.disagreement = Disagreement(at: instant, on: binding, fold: fold, oracle: expected)
                return comparison
            }
        }
        return comparison
    }

    /// Removes verdicts, revocations and redemptions, then signed deadlines, one at a time while `keeps`
    /// holds.
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
            candidates += smallest.redemptions.indices.map { index in
                var candidate = smallest
                candidate.redemptions.remove(at: index)
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
        fold and oracle disagree at \(found.at) on \(found.on): fold \(found.fold), oracle \(found.oracle).
        Minimal sequence (disagreeing at \(at.at) on \(at.on): fold \(at.fold), oracle \(at.oracle)) — keep it as \
        Vectors/fold/<name>.json with the checks the rules give:
        \(shrunk)
        """
    }

    @Test func foldAgreesWithTheOracleOnGeneratedHistories() {
        var generator = FoldScenarioGenerator(seed: Self.seed)
        var instantsCompared = 0
        var grants: [String: Int] = [:]  // how many scenarios redeem a recovery, an unban
        for number in 0..<Self.budget {
            let scenario = generator.scenario(name: "seed-\(Self.seed)-\(number)")
            for kind in Set(scenario.redemptions.map(\.grant)) { grants[kind, default: 0] += 1 }
            let comparison = Self.compare(scenario)
            instantsCompared += comparison.instants
            guard let found = comparison.disagreement else { continue }
            let minimal = Self.shrink(scenario) { $0.disagreement != nil }
            Issue.record(Comment(rawValue: Self.report(found, shrunk: minimal, Self.compare(minimal).disagreement!)))
            return
        }
        print(
            "oracle: \(Self.budget) sequences (\(grants["recovery"] ?? 0) with a recovery, \(grants["unban"] ?? 0) with "
                + "an unban), \(instantsCompared) instants compared, seed \(Self.seed)")
        #expect(instantsCompared > Self.budget)
        // F12 is compared only if the histories redeem grants: both kinds, in a good share of them.
        #expect(grants["recovery", default: 0] * 20 >= Self.budget && grants["unban", default: 0] * 20 >= Self.budget)
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
        let oracleRefs = Dictionary(
            Array(zip(scenario.verdicts.map(\.id), oracle.refs)) + zip(scenario.redemptions.map(\.id), oracle.grantRefs)
        ) { first, _ in first }
        let effects = scenario.effects()
        #expect(!scenario.checks.isEmpty)
        for check in scenario.checks {
            let at = try OracleTime.parse(check.at)
            let binding = FoldScenario.binding(forKey: check.on)
            let fold = Self.fold(rendered, effects, on: binding, at: at)
            #expect(fold.bits == check.bits, "fold bits at \(check.at) on \(binding)")
            #expect(
                fold.authorizedBy == Self.resolve(check.authorizedBy) { rendered.refs[$0]?.hex },
                "fold at \(check.at) on \(binding)")
            let expected = oracle.answer(at: at, on: binding)
            #expect(expected.bits == check.bits, "oracle bits at \(check.at) on \(binding)")
            #expect(
                expected.authorizedBy == Self.resolve(check.authorizedBy) { oracleRefs[$0] },
                "oracle at \(check.at) on \(binding)")
        }
        #expect(Self.compare(scenario).disagreement == nil)
    }
}

extension OracleTests {
    /// A check's `authorizedBy` in a side's terms: a verdict id is that verdict's ref,
    /// `recovery-unban:<redemption id>` names the grant's ref, anything else is a rule name.
    static func resolve(_ authorizedBy: String, ref: (String) -> String?) -> String {
        let prefix = "recovery-unban:"
        if authorizedBy.hasPrefix(prefix), let grantRef = ref(String(authorizedBy.dropFirst(prefix.count))) {
            return prefix + grantRef
        }
        return ref(authorizedBy) ?? authorizedBy
    }
}

extension OracleInstant {
    /// The same instant as the product's type.
    var product: Instant { Instant(seconds: numericCast(seconds), nanoseconds: numericCast(nanos)) }

    init(_ instant: Instant) {
        self.init(seconds: numericCast(instant.seconds), nanos: numericCast(instant.nanoseconds))
    }
}
