/// A mandate as a stored kind. Reference §2, §3.3: `signatures[0]` by its user and `signatures[1]` by
/// the interface's countersigning key for its authority, over the same canonical bytes.
extension Mandate: CanonicalStoredRecord, TimedRecord {
    public static let kindName = "mandate"
    public static let code: UInt8 = 2
    public static let folder = "mandates"
    public static let tellingFields = ["mandateVersion"]
    public var address: ContentAddress { ref }

    public static let signatures: [SignatureRule] = [
        .init(of: Mandate.self, .user, key: .carried) { mandate, _, _ in mandate.userSignatureStatus },
        .init(of: Mandate.self, .interface, key: .countersigning { ($0 as? Mandate)?.authority ?? "" }) {
            mandate, keys, _ in mandate.interfaceSignatureStatus(candidates: keys)
        },
    ]

    public var timedFields: [TimeWindow.Field] { [.init("acceptedAt", acceptedAt, .statedElsewhere)] }
}
