import LedgerFormat

/// Where each thing lives in the site, relative to the site's root. File names come from hashes of what
/// they name, never from the names themselves: a binding or an authority id is text an insider chose, and
/// must not pick a path.
struct SiteLinks {
    /// Which binding each verdict names (a receipt's page is its verdict's binding's page).
    let bindingOfVerdict: [ContentAddress: WireString]

    /// A binding's page: `bindings/b-<first 32 hex digits of SHA-256(binding)>.html`.
    static func binding(_ binding: WireString) -> String {
        "bindings/b-" + String(SHA256.hash(Array(binding.text.utf8)).hex.prefix(32)) + ".html"
    }

    /// An authority's page: `authorities/a-<first 32 hex digits of SHA-256(component id)>.html`.
    static func authority(_ componentId: WireString) -> String {
        "authorities/a-" + String(SHA256.hash(Array(componentId.text.utf8)).hex.prefix(32)) + ".html"
    }

    /// A page of the binding index (1-based).
    static func bindingIndexPage(_ number: Int) -> String { "bindings/page-\(number).html" }

    /// The anchor of a record inside whichever page shows it: kind and address (a receipt is named by its
    /// verdict's address, so the address alone does not name one record).
    static func anchor(_ stored: LedgerContents.Stored) -> String { anchor(kind: stored.kindName, stored.address) }
    static func anchor(kind: String, _ address: ContentAddress) -> String { "r-\(kind)-\(address.hex)" }
    static func writeAnchor(_ sequence: Int64) -> String { "w-\(sequence)" }

    /// Where a record is shown: on its binding's page for mandates, verdicts and receipts (the binding's story),
    /// else on a page of its own under `records/`.
    func record(_ stored: LedgerContents.Stored) -> String {
        switch stored.record {
        case let mandate as Mandate: Self.binding(mandate.deviceBinding) + "#" + Self.anchor(stored)
        case let verdict as Verdict: Self.binding(verdict.deviceBinding) + "#" + Self.anchor(stored)
        case let receipt as VerdictReceipt:
            bindingOfVerdict[receipt.verdictRef].map { Self.binding($0) + "#" + Self.anchor(stored) }
                ?? Self.ownPage(stored)
        default: Self.ownPage(stored)
        }
    }

    /// A verdict's place (its binding's page), for links from writes and authority pages.
    func verdict(_ ref: ContentAddress) -> String? {
        bindingOfVerdict[ref].map { Self.binding($0) + "#" + Self.anchor(kind: Verdict.kindName, ref) }
    }

    /// Whether `stored` is shown on a page of its own (it belongs to no single binding's story).
    func hasOwnPage(_ stored: LedgerContents.Stored) -> Bool { record(stored) == Self.ownPage(stored) }

    static func ownPage(_ stored: LedgerContents.Stored) -> String {
        "records/\(stored.kindName)-\(stored.address.hex).html"
    }

    /// The search shard a key (a binding or an `onym:key:`) is listed in: FNV-1a (32-bit) over its UTF-8,
    /// low byte, as two hex digits — the same function the page's script computes.
    static func searchShard(_ key: String) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in key.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        let low = hash & 0xFF
        let digits = Array("0123456789abcdef")
        return String([digits[Int(low >> 4)], digits[Int(low & 0xF)]])
    }
}
