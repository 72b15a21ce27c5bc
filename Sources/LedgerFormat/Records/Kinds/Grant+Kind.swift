/// A grant as a stored kind (onym-wire §3.12): addressed by its `grantRef`. It names no record — the
/// key that signs it is the operator key of the manifest the grantee's mandate consented to, which the
/// ``Redemption`` that redeems it names — so its signature is checked at its redemption.
extension Grant: CanonicalStoredRecord, TimedRecord {
    public static let kindName = "grant"
    public static let code: UInt8 = 8
    public static let folder = "grants"
    public static let tellingFields = ["grantVersion"]
    public var address: ContentAddress { ref }

    public var timedFields: [TimeWindow.Field] { [.init("issuedAt", issuedAt, .statedElsewhere)] }
}
