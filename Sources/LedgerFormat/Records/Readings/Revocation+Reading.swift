/// The revocation kinds read: a compromise report's, a revocation's and a status attempt's parties,
/// times and triggers, and the records they name.
extension CompromiseReport {
    public var reading: RecordFacts {
        RecordFacts(
            title: "Compromise report of \(authority)",
            facts: [
                .init("Authority", .authority(authority)),
                .init(
                    "What it says",
                    .words("The authority reports that the operator key of its manifest was compromised.")),
                .init("Compromised at", .time(compromisedAt)),
                .init("Reported at", .time(reportedAt)),
                .init("Manifest whose key it reports", .reference(manifestHash)),
            ])
    }
}

extension RevocationDetermination {
    public var reading: RecordFacts {
        RecordFacts(
            title: "Revocation of \(authority)",
            facts: [
                .init("Interface", .text(interface)),
                .init("Authority whose designation it revokes", .authority(authority)),
                .init("Why", triggerValue),
                .init("Effective at", .time(effectiveAt)),
                .init("Determined at", .time(determinedAt)),
                .init("Records it cites", .lines(evidence.map { .reference($0) })),
            ])
    }

    private var triggerValue: RecordFacts.Value {
        let words =
            switch trigger {
            case .authorityCompromise: "the authority reported its own compromise"
            case .unreachable: "the authority did not answer for the unreachability window"
            }
        return .phrase([.words(words + " ("), .text(trigger.rawValue), .words(")")])
    }
}

extension StatusAttempt {
    public var reading: RecordFacts {
        RecordFacts(
            title: "Status attempt to reach \(authority)",
            facts: [
                .init("Interface", .text(interface)),
                .init("Authority it tried to reach", .authority(authority)),
                .init("Attempted at", .time(attemptedAt)),
                .init(
                    "Answered",
                    answered
                        ? .phrase([.words("yes")] + (answeredAt.map { [.words(", at "), .time($0)] } ?? []))
                        : .words("no")),
            ])
    }
}
