public import LedgerFormat
public import LedgerVerifier

/// What the report shows, computed once from a verified ledger: its contents, each binding's story and
/// each authority's record, as of the verification time.
public struct ReportModel {
    public let ledger: AuditedLedger
    public let contents: LedgerContents
    public let stories: [BindingStory]
    public let authorities: [AuthorityRecord]
    /// The report's time: the verification's.
    public let now: Instant
    let links: SiteLinks
    /// Each shown record's transparency-log proof, for the pages' own check (nil: the ledger has no log).
    var proofs: RecordProofs?
    /// A record's kind and address: what names one record (a receipt shares its verdict's address).
    struct RecordKey: Hashable {
        let kind: String
        let address: ContentAddress
    }
    /// Every record by kind and address.
    let recordsByKey: [RecordKey: LedgerContents.Stored]

    /// The stored record of `kind` under `address`, if the ledger holds one.
    func stored(_ kind: any StoredRecord.Type, _ address: ContentAddress) -> LedgerContents.Stored? {
        recordsByKey[RecordKey(kind: kind.kindName, address: address)]
    }

    public init(_ ledger: AuditedLedger, contents: LedgerContents) {
        self.ledger = ledger
        self.contents = contents
        now = ledger.verifiedAt
        let history = ledger.history
        let verdicts = contents.verdicts
        links = SiteLinks(
            bindingOfVerdict: Dictionary(
                verdicts.map { ($0.ref, $0.deviceBinding) }, uniquingKeysWith: { first, _ in first }))
        recordsByKey = Dictionary(
            contents.records.map { (RecordKey(kind: $0.kindName, address: $0.address), $0) },
            uniquingKeysWith: { first, _ in first })
        var facts: [ContentAddress: VerdictFact] = [:]
        for list in history.facts.values { for fact in list { facts[fact.ref] = fact } }
        authorities = AuthorityRecord.all(contents, facts: facts)

        var receipts: [ContentAddress: VerdictReceipt] = [:]
        for receipt in contents.receipts where receipts[receipt.verdictRef] == nil {
            receipts[receipt.verdictRef] = receipt
        }
        let mandatesByBinding = Dictionary(grouping: contents.mandates, by: \.deviceBinding)
        let verdictsByBinding = Dictionary(grouping: verdicts, by: \.deviceBinding)
        let entriesByBinding = Dictionary(grouping: contents.entries, by: \.deviceBinding)
        var bindings = Set(mandatesByBinding.keys)
        bindings.formUnion(verdictsByBinding.keys)
        bindings.formUnion(entriesByBinding.keys)
        let grants = Dictionary(contents.grants.map { ($0.ref, $0) }, uniquingKeysWith: { first, _ in first })
        var grantsByBinding: [WireString: BindingStory.Grants] = [:]
        for redemption in contents.redemptions {
            for binding in Set([redemption.fromBinding] + (redemption.toBinding.map { [$0] } ?? [])) {
                grantsByBinding[binding, default: .init()].redemptions.append((redemption, grants[redemption.grantRef]))
            }
        }
        bindings.formUnion(grantsByBinding.keys)
        let unauthorized = ledger.unauthorizedWrites
        let now = self.now
        stories = bindings.sorted().map { binding in
            var stated = grantsByBinding[binding] ?? .init()
            stated.effects = history.redemptions
            return BindingStory(
                binding: binding, mandates: mandatesByBinding[binding] ?? [],
                verdicts: verdictsByBinding[binding] ?? [], receipts: receipts,
                entries: entriesByBinding[binding] ?? [], facts: history.foldFacts(of: binding),
                revocations: history.revocations, grants: stated, unauthorized: Set(unauthorized[binding] ?? []),
                at: now)
        }
    }
}
