/// A revocation determination as a stored kind. Onym-wire §9: signed by the interface's countersigning
/// key for the authority, and justified by the evidence it cites — compromise reports or status
/// attempts, in its commit or before it.
extension RevocationDetermination: CanonicalStoredRecord {
    public static let kindName = "revocation"
    public static let code: UInt8 = 7
    public static let folder = "revocations"
    public static let tellingFields = ["revocationVersion"]
    public var address: ContentAddress { ref }

    public static let references: [RecordReference] = [
        .field(of: RevocationDetermination.self, to: CompromiseReport.self) { $0.evidence },
        .field(of: RevocationDetermination.self, to: StatusAttempt.self) { $0.evidence },
    ]

    public static let signatures: [SignatureRule] = [
        .init(
            of: RevocationDetermination.self, .interface,
            key: .countersigning { ($0 as? RevocationDetermination)?.authority ?? "" }
        ) { revocation, keys, _ in revocation.signatureStatus(keys: keys) }
    ]

    public var timedFields: [TimeWindow.Field] {
        [.init("determinedAt", determinedAt, .vendorEvent), .init("effectiveAt", effectiveAt, .statedElsewhere)]
    }
}

/// A revocation read: the interface, the authority whose designation it revokes, its trigger and times, and
/// the records it cites.
extension RevocationDetermination {
    public var reading: RecordFacts {
        RecordFacts(
            title: "Revocation of \(authority)",
            facts: [
                .init("Interface", .text(interface.text)),
                .init("Authority whose designation it revokes", .authority(authority.text)),
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
