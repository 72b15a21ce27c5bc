/// Who may accuse whom (docs/DECISIONS.md, "An authority's id stands for one key"): in one
/// ledger, an authority's component id stands for one operator key. A manifest that claims an id the
/// ledger already knows, with another operator key, is refused by the writer and is an integrity
/// finding for the verifier — otherwise whoever holds the vendor's key could mint a key, publish a
/// manifest under an existing authority's name, and sign verdicts in that authority's name.
///
/// A real key change is a new designation: the authority publishes a manifest under a new component id
/// (and, if its old key is compromised, reports the compromise so the old designation is revoked).
public enum AuthorityIdentity {
    public static let ruleName = "AuthorityIdentityPolicy"

    /// Why `manifest` contradicts the manifests the ledger already holds, or nil.
    public static func conflict(_ manifest: AuthorityManifest, known: [AuthorityManifest]) -> String? {
        guard
            let other = known.first(where: {
                $0.componentId == manifest.componentId && $0.operatorKey != manifest.operatorKey
            })
        else { return nil }
        return "claims \(manifest.componentId) with operator \(manifest.operatorKey.onymKey), but the ledger knows "
            + "\(manifest.componentId) with operator \(other.operatorKey.onymKey) (manifest \(other.hash.hex)): "
            + "an authority's id stands for one operator key"
    }
}
