/// A status attempt as a stored kind. Onym-wire §9: signed by the interface's countersigning key for the
/// authority it asked.
extension StatusAttempt: CanonicalStoredRecord {
    public static let kindName = "status-attempt"
    public static let code: UInt8 = 5
    public static let folder = "status-attempts"
    public static let tellingFields = ["attemptVersion"]
    public var address: ContentAddress { ref }

    public static let signatures: [SignatureRule] = [
        .init(of: StatusAttempt.self, .interface, key: .countersigning { ($0 as? StatusAttempt)?.authority ?? "" }) {
            attempt, keys, _ in attempt.signatureStatus(keys: keys)
        }
    ]

    public var timedFields: [TimeWindow.Field] {
        [.init("attemptedAt", attemptedAt, .vendorEvent)]
            + (answeredAt.map { [.init("answeredAt", $0, .vendorEvent)] } ?? [])
    }
}

/// A status attempt read: the authority it tried to reach, when, and whether and when it was answered.
extension StatusAttempt {
    public var reading: RecordFacts {
        RecordFacts(
            title: "Status attempt to reach \(authority)",
            facts: [
                .init("Interface", .text(interface.text)),
                .init("Authority it tried to reach", .authority(authority.text)),
                .init("Attempted at", .time(attemptedAt)),
                .init(
                    "Answered",
                    answered
                        ? .phrase([.words("yes")] + (answeredAt.map { [.words(", at "), .time($0)] } ?? []))
                        : .words("no")),
            ])
    }
}
