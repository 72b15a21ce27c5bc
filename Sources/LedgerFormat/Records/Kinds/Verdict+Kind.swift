/// A verdict as a stored kind. docs/DECISIONS.md, "Keys and signatures": it names a mandate, the mandate
/// pins a manifest by the hash of its exact bytes, and the verdict's signature verifies under that
/// manifest's operator key; its receipt arrives in the same commit (reference §3.6).
extension Verdict: CanonicalStoredRecord {
    public static let kindName = "verdict"
    public static let code: UInt8 = 3
    public static let folder = "verdicts"
    public static let tellingFields = ["verdictVersion"]
    public var address: ContentAddress { ref }

    public static let references: [RecordReference] = [
        .field(of: Verdict.self, to: Mandate.self) { [$0.mandateRef] },
        .through(Mandate.self, to: AuthorityManifest.self) { $0.manifestHash },
        .field(of: Verdict.self, to: VerdictReceipt.self, scope: .sameCommit) { [$0.ref] },
    ]

    public static let signatures: [SignatureRule] = [
        .init(of: Verdict.self, .operator, key: .referencedManifestOperator, manifestAuthority: \.authority) {
            verdict, keys, _ in
            SignatureRule.any(of: keys, verdict.signature, over: verdict.signingBytes)
        }
    ]
}

/// A verdict read: the authority's decision in a case — its disposition and the marks it writes, the
/// class, the accused and the binding, the mandate it acts under, its reasoning, its times (reference
/// §3.4: a ban's appeal deadline, execute-after and expiry; none for a permanent ban's expiry) and the
/// recourse it names.
extension Verdict {
    public var reading: RecordFacts {
        let meaning =
            switch disposition {
            case .openCase: "opens a case against the accused"
            case .dismiss: "dismisses the case (a reversal is a dismissal)"
            case .ban: "bans the accused"
            }
        func mark(_ name: String, _ on: Bool) -> RecordFacts.Value {
            .phrase([.text(name), .words(on ? " on" : " off")])
        }
        var facts: [RecordFacts.Fact] = [
            .init("Disposition", .phrase([.words(meaning + " ("), .text(disposition.rawValue), .words(")")])),
            .init("Authority (signs it)", .authority(authority.text)),
            .init("Case", .text(caseId.text)),
            .init("Violation class", .text(classId.text)),
            .init("Accused", .lines(accusedKeys.map { .key($0.text) })),
            .init("Device binding", .text(deviceBinding.text)),
            .init("Mandate it acts under", .reference(mandateRef)),
            .init("Marks it writes", .list([mark("case-open", marks.caseOpen), mark("banned", marks.banned)])),
            .init("Reasoning", .text(reasoning)),
            .init("Decided at", .time(decidedAt)),
        ]
        let times: [(String, Instant?)] = [
            ("Decision deadline", decisionDeadline), ("Appeal deadline", appealDeadline),
            ("Takes effect after", executeAfter),
        ]
        for case (let label, let time?) in times { facts.append(.init(label, .time(time))) }
        if let banExpires {
            facts.append(.init("Ban expires", .time(banExpires)))
        } else if disposition == .ban {
            facts.append(.init("Ban expires", .words("never: the ban is permanent")))
        }
        let recourse = [
            ("Appeal address", appealUrl), ("New holder's appeal", newHolderUrl), ("Contact", authorityContact),
        ]
        for case (let label, let text?) in recourse { facts.append(.init(label, .text(text))) }
        facts.append(.init("Final", .words(isFinal ? "yes" : "no")))
        return RecordFacts(title: "Verdict in case \(caseId): \(disposition.rawValue)", facts: facts)
    }
}
