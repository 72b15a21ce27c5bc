/// A revocation determination as a stored kind. Onym-wire §9: signed by the interface's countersigning
/// key for the authority, and justified by the evidence it cites — compromise reports or status
/// attempts, in its commit or before it.
extension RevocationDetermination: CanonicalStoredRecord, TimedRecord {
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
