import LedgerTestSupport

/// Seeded generator of scenarios: several cases per binding and authorities, every disposition,
/// suspensive and not, permanent and expiring, signed deadlines (some before `decidedAt`), same-second
/// verdicts, receipts later than decisions or up to 300 s earlier (the reference's skew), re-deliveries,
/// revocations, ban terms off by up to the validator's tolerance, timestamps written with offsets,
/// fractions and lower-case `t`/`z`; and redeemed grants (``redemptions(_:moments:revocations:)``), some
/// cases on a second binding or accusing a second identity.
struct FoldScenarioGenerator {
    private var state: UInt64
    /// Whether instants may fall between seconds. A ledger's commits and write entries are dated in
    /// whole seconds, so a history written into a real ledger (``ClosedLoopTests``) keeps to them.
    private let fractions: Bool

    init(seed: UInt64, fractions: Bool = true) {
        state = seed
        self.fractions = fractions
    }

    /// SplitMix64.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    static let origin = try! OracleTime.parse("2026-03-01T00:00:00Z")

    /// An instant within a few days: on a coarse grid half of the time (so that verdicts, deadlines
    /// and expiries often share a second), else at a second, sometimes with a fraction.
    mutating func instant(within days: Int) -> OracleInstant {
        let hours = below(days * 24)
        if chance(50) { return Self.origin.adding(seconds: Int64(hours * 3600)) }
        let digits = fractions ? pick([0, 0, 1, 3, 6, 9]) : 0
        let unit = (0..<(9 - digits)).reduce(Int64(1)) { product, _ in product * 10 }
        let nanos = digits == 0 ? 0 : Int64(below(1_000_000_000)) / unit * unit
        return Self.origin.adding(seconds: Int64(hours * 3600 + below(3600)), nanos: nanos)
    }

    /// How one party writes its timestamps: an offset, a minimum of fraction digits, the letters' case.
    struct Style {
        var offsetMinutes: Int64 = 0
        var minimumDigits = 0
        var lowercase = false
        var numericZero = false

        func text(_ instant: OracleInstant) -> String {
            OracleTime.render(
                instant, offsetMinutes: offsetMinutes,
                fractionDigits: max(minimumDigits, OracleTime.neededDigits(instant.nanos)), lowercase: lowercase,
                numericZero: numericZero)
        }
    }

    mutating func style() -> Style {
        guard !chance(40) else { return Style() }
        return Style(
            offsetMinutes: pick([0, 60, -300, 330, 345, -600, 840, -720, 59, -1439, 1439]),
            minimumDigits: pick([0, 0, 3, 9]), lowercase: chance(10), numericZero: chance(30))
    }

    /// - Parameters:
    ///   - authorities: which fixture authorities may decide cases (the first most often).
    ///   - withRevocations: whether a designation revocation may occur.
    ///   - withGrants: whether redeemed grants may occur, and cases on a second binding or accusing a second
    ///     identity (without them, the generator draws exactly what it drew before grants existed).
    mutating func scenario(
        name: String, authorities: [String] = ["A", "B", "C"], withRevocations: Bool = true, withGrants: Bool = true
    ) -> FoldScenario {
        var verdicts: [FoldScenario.VerdictSpec] = []
        var moments: [OracleInstant] = []
        let caseCount = 1 + below(3)
        for caseNumber in 0..<caseCount {
            let authority = authorities.count == 1 || chance(60) ? authorities[0] : pick(Array(authorities.dropFirst()))
            let classes = FoldScenario.authorities[authority]!.classes
            let caseId = "case-\(caseNumber)"
            // The case's binding and accused identity: now and then the reinstalled app's, or another identity.
            let (caseBinding, caseAccused) = withGrants ? (chance(15) ? "2" : nil, chance(15) ? "2" : nil) : (nil, nil)
            var decided = instant(within: 6)
            var caseDeadline: OracleInstant?  // the first opening's, to aim verdicts at
            for _ in 0..<(1 + below(4)) {
                let disposition = ["open-case", "open-case", "ban", "dismiss"][below(4)]
                let terms = pick(classes)
                let signer = style()
                var received = decided
                switch below(7) {
                case 0: received = decided.adding(seconds: Int64(below(4)))
                case 1: received = decided.adding(seconds: Int64(3600 * (1 + below(72))))
                case 2: received = decided.adding(seconds: -Int64(below(301)))  // up to the 300 s skew
                case 3 where fractions: received = decided.adding(seconds: 0, nanos: -Int64(below(300_000)) * 1_000_000)
                default: break
                }
                var spec = FoldScenario.VerdictSpec(
                    id: "v\(verdicts.count)", authority: authority, disposition: disposition, caseId: caseId,
                    classId: terms.classId, decided: signer.text(decided), received: style().text(received))
                if withGrants {  // a stray verdict of the case naming the other binding or identity
                    spec.binding = chance(5) ? (caseBinding == nil ? "2" : nil) : caseBinding
                    spec.accused = chance(5) ? (caseAccused == nil ? "2" : nil) : caseAccused
                }
                moments.append(decided)
                if disposition == "open-case" {
                    var deadline = decided.adding(days: OracleTime.days(terms.decisionDeadline)!)
                    if chance(30) {  // signed, sometimes before decidedAt (then the deadline is decidedAt)
                        let signed = decided.adding(
                            seconds: Int64(3600 * (below(7 * 24) - 72) + (chance(50) ? 0 : below(3600))))
                        spec.deadline = style().text(signed)
                        deadline = max(signed, decided)
                    }
                    moments.append(deadline)
                    caseDeadline = caseDeadline ?? deadline
                }
                if disposition == "ban" {
                    // The validator's tolerance: under 2 s either way (onym-wire §4.1 step 6).
                    let skewMillis: Int64 =
                        !chance(15) ? 0 : fractions ? Int64(below(3999) - 1999) : Int64(below(3) - 1) * 1000
                    let appealDeadline = decided.adding(days: OracleTime.days(terms.appealWindow)!)
                    let executeAfter = (terms.appealEffect == "suspensive" ? appealDeadline : decided)
                        .adding(seconds: 0, nanos: skewMillis * 1_000_000)
                    let banExpires = OracleTime.days(terms.banTerm).map { executeAfter.adding(days: $0) }
                    spec.appealDeadline = signer.text(appealDeadline)
                    spec.executeAfter = signer.text(executeAfter)
                    spec.banExpires = banExpires.map(signer.text)
                    moments += [executeAfter] + (banExpires.map { [$0] } ?? [])
                }
                verdicts.append(spec)
                if chance(10) {  // a re-delivery of the same verdict, received again later
                    var again = spec
                    again.id = "v\(verdicts.count)"
                    again.received = style().text(received.adding(seconds: Int64(3600 * (1 + below(48)))))
                    verdicts.append(again)
                }
                // The next verdict of the case: around its deadline (just late, and then often received before
                // it), around another moment, at the same instant, or hours to days later.
                switch below(100) {
                case 0..<12 where caseDeadline != nil:
                    decided = caseDeadline!.adding(seconds: pick([-1, 0, 1, 1 + Int64(below(299))]))
                case 0..<22: decided = pick(moments).adding(seconds: pick([-1, 0, 0, 1]))
                case 22..<35: break
                default: decided = decided.adding(seconds: Int64(1800 * (1 + below(200))))
                }
            }
        }
        var revocations: [FoldScenario.RevocationSpec] = []
        if withRevocations && chance(20) {
            // At the very instant something else happens, half of the time.
            let effective = chance(50) ? pick(moments) : instant(within: 10)
            revocations.append(
                .init(
                    authority: pick(authorities), effective: style().text(effective),
                    determined: style().text(effective.adding(seconds: Int64(3600 * below(48))))))
        }
        let redeemed = withGrants && chance(40) ? redemptions(verdicts, moments: moments, revocations: revocations) : []
        return FoldScenario(name: name, verdicts: verdicts, revocations: revocations, redemptions: redeemed)
    }
}
