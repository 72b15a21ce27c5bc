/// The enforcement profile as a stored kind (docs/FORMAT.md "Records"): it names nothing and carries no
/// signature (the descriptor pins it).
extension EnforcementProfile: CanonicalStoredRecord {
    public static let kindName = "profile"
    public static let code: UInt8 = 0
    public static let folder = "profiles"
    public static let tellingFields = ["profileVersion"]
    public var address: ContentAddress { ref }
}

/// A profile read: its identity, the bits its marks are written to, the interactions it defines, its case
/// notice schema and specification.
extension EnforcementProfile {
    public var reading: RecordFacts {
        let text = { (field: String) in self.json[field]?.stringValue }
        let marks = markBindings.keys.sorted().map { mark in
            RecordFacts.Value.phrase([.text(mark), .words(" → "), .text(markBindings[mark]!)])
        }
        let bindings = json["bindings"]?.objectValue?.keys ?? []
        return RecordFacts(
            title: "Enforcement profile \(profileId)",
            facts: [
                .init("Profile", .text(profileId)),
                .init("Platform", .text(platform)),
                .init("Marks and the bits they are written to", .lines(marks)),
                .init("Interactions it defines", .list(bindings.map { .text($0) })),
                .init("Case notice schema", .text(text("caseNoticeSchema"))),
                .init("Specification (content address)", .text(text("specification"))),
            ])
    }
}
