/// A receipt as a stored kind: named by the verdict it receipts (at most one per verdict, found without
/// an index), which it resolves with the verdict's mandate and manifest (reference §3.6).
extension VerdictReceipt: CanonicalStoredRecord, TimedRecord {
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
