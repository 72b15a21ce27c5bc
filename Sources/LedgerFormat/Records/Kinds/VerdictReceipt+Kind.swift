/// A receipt as a stored kind: named by the verdict it receipts (at most one per verdict, found without
/// an index), which it resolves with the verdict's mandate and manifest (reference §3.6).
extension VerdictReceipt: CanonicalStoredRecord {
    public static let kindName = "receipt"
    public static let code: UInt8 = 4
    public static let folder = "receipts"
    public static let tellingFields = ["verdictRef", "status"]
    public var address: ContentAddress { verdictRef }
    public static var isNamedByItsOwnContent: Bool { false }

    public static let references: [RecordReference] = [
        .field(of: VerdictReceipt.self, to: Verdict.self) { [$0.verdictRef] },
        .through(Verdict.self, to: Mandate.self) { $0.mandateRef },
        .through(Mandate.self, to: AuthorityManifest.self) { $0.manifestHash },
    ]

    public var timedFields: [TimeWindow.Field] { [.init("receivedAt", receivedAt, .vendorEvent)] }
}

/// A receipt read: the verdict it receipts, when the vendor received it and what the vendor does with it
/// (reference §3.6: `stored` when a valid ban's `executeAfter` is still ahead, else `queued`).
extension VerdictReceipt {
    public var reading: RecordFacts {
        let meaning =
            switch status {
            case .queued: "its marks are written at the device's next gate session"
            case .stored: "a ban kept until its execute-after time, then written at the device's next gate session"
            }
        return RecordFacts(
            title: "Receipt for verdict \(verdictRef.hex.prefix(12))",
            facts: [
                .init("What it says", .words("The vendor received the verdict and accepted it.")),
                .init("Verdict it receipts", .reference(verdictRef)),
                .init("Status", .phrase([.words(meaning + " ("), .text(status.rawValue), .words(")")])),
                .init("Received at", .time(receivedAt)),
            ])
    }
}
