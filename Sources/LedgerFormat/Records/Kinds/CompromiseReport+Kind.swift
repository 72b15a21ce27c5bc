/// A compromise report as a stored kind. Onym-wire §9, profile §6 item 4: it names the authority's
/// manifest and is signed by that manifest's operator key; it states when it was reported (a vendor
/// event) and when the compromise began (stated elsewhere).
extension CompromiseReport: CanonicalStoredRecord {
    public static let kindName = "compromise-report"
    public static let code: UInt8 = 6
    public static let folder = "compromise-reports"
    public static let tellingFields = ["compromiseReportVersion"]
    public var address: ContentAddress { ref }

    public static let references: [RecordReference] = [
        .field(of: CompromiseReport.self, to: AuthorityManifest.self) { [$0.manifestHash] }
    ]

    public static let signatures: [SignatureRule] = [
        .init(of: CompromiseReport.self, .operator, key: .referencedManifestOperator) { report, keys, _ in
            report.signatureStatus(keys: keys)
        }
    ]

    public var timedFields: [TimeWindow.Field] {
        [.init("reportedAt", reportedAt, .vendorEvent), .init("compromisedAt", compromisedAt, .statedElsewhere)]
    }
}

/// A compromise report read: the authority, what it reports, its times and the manifest whose key it names.
extension CompromiseReport {
    public var reading: RecordFacts {
        RecordFacts(
            title: "Compromise report of \(authority)",
            facts: [
                .init("Authority", .authority(authority.text)),
                .init(
                    "What it says",
                    .words("The authority reports that the operator key of its manifest was compromised.")),
                .init("Compromised at", .time(compromisedAt)),
                .init("Reported at", .time(reportedAt)),
                .init("Manifest whose key it reports", .reference(manifestHash)),
            ])
    }
}
