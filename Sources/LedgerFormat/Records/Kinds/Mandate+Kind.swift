/// A mandate as a stored kind. Reference §2, §3.3: `signatures[0]` by its user and `signatures[1]` by
/// the interface's countersigning key for its authority, over the same canonical bytes.
extension Mandate: CanonicalStoredRecord {
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

/// A mandate read: whose consent, to which authority and manifest, for which classes and device binding,
/// when, and which signatures it carries (whether they verify is `verify`'s finding, not the reading's).
extension Mandate {
    public var reading: RecordFacts {
        let signed: RecordFacts.Value =
            switch signatures.count {
            case 0: .absent(because: "it carries no signature")
            case 1: .words("the user's; the interface has not countersigned it")
            default: .words("the user's and the interface's countersignature")
            }
        return RecordFacts(
            title: "Mandate for \(authority) on \(deviceBinding)",
            facts: [
                .init(
                    "What it says",
                    .words(
                        "The user consents to the authority's manifest for these violation classes on this device binding."
                    )),
                .init("User (signs it)", .key(userKey.text)),
                .init("Authority consented to", .authority(authority.text)),
                .init("Manifest consented to", .reference(manifestHash)),
                .init("Violation classes", .list(classes.map { .text($0.text) })),
                .init("Device binding", .text(deviceBinding.text)),
                .init("Interface (countersigns it)", .text(interface.text)),
                .init("Accepted at", .time(acceptedAt)),
                .init("Signatures it carries", signed),
            ])
    }
}
