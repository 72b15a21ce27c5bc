import LedgerFormat

/// The keys a ledger's signatures are checked against in `verify` and `append`: countersigning keys
/// from the descriptor in force, operator keys from the manifest a record names.
struct LedgerKeys: SignatureKeys {
    let descriptor: LedgerDescriptor?

    func countersigningKeys(for authority: WireString) -> [Ed25519.PublicKey] {
        descriptor?.countersigningKeys(for: authority) ?? []
    }

    func operatorKeys(of manifest: AuthorityManifest?) -> [Ed25519.PublicKey]? {
        manifest.map { [$0.operatorKey] }
    }
}
