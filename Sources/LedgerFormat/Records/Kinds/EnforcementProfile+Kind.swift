/// The enforcement profile as a stored kind (docs/FORMAT.md "Records"): it names nothing and carries no
/// signature (the descriptor pins it).
extension EnforcementProfile: CanonicalStoredRecord {
    public static let kindName = "profile"
    public static let code: UInt8 = 0
    public static let folder = "profiles"
    public static let tellingFields = ["profileVersion"]
    public var address: ContentAddress { ref }
}
