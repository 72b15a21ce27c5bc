/// An authority's manifest as a stored kind: its exact published bytes, addressed by their hash; its
/// detached signature is a file of its own (``DetachedManifestSignature``).
extension AuthorityManifest: StoredRecord {
    public static let kindName = "manifest"
    public static let code: UInt8 = 1
    public static let folder = "manifests"
    public static let tellingFields = ["violationClasses"]
    /// A manifest is stored and hashed as the exact bytes its authority published.
    public init(storedBytes: [UInt8], json: JSONObject) throws(LedgerFormatError) {
        try self.init(rawBytes: storedBytes)
    }
    public var storedBytes: [UInt8] { rawBytes }
    public var address: ContentAddress { hash }
}
