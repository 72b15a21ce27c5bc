import LedgerFormat

/// The search: `search.html` and 256 shard scripts `search/<xx>.js`. A key — a device binding
/// (`enrollment:…`) or an identity (`onym:key:…`) — is searched by any prefix, in any letter case: its
/// lower-cased form is filed in the shard named by the FNV-1a hash of the first two bytes of its
/// *distinctive part* (the text after `enrollment:` or `onym:key:`), ``SiteLinks/searchShard(_:)``. A query
/// names its distinctive part the same way, so one shard holds every key it can match. A search loads that
/// one shard: the site stays fast at 10^5+ bindings, and works from `file://`, where pages cannot fetch
/// files but can load scripts.
enum SearchIndex {
    /// The prefixes that name a key's kind; what follows is the part a reader tells keys apart by.
    static let kindPrefixes = ["enrollment:", "onym:key:"]

    /// ASCII lower case, the same in the page's script (`toLowerCase` would also fold non-ASCII letters,
    /// which the shard names must not depend on).
    static func normalized(_ key: String) -> String {
        String(
            String.UnicodeScalarView(
                key.unicodeScalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32)! : $0 }))
    }

    /// The text after the kind prefix, or the whole key when it has none.
    static func distinctivePart(_ normalizedKey: String) -> Substring {
        for prefix in kindPrefixes where normalizedKey.hasPrefix(prefix) {
            return normalizedKey.dropFirst(prefix.count)
        }
        return normalizedKey[...]
    }

    /// The shard a key is filed in: its distinctive part's first two bytes (a key shorter than that is
    /// filed under what it has).
    static func shard(of key: String) -> String {
        SiteLinks.searchShard(String(decoding: distinctivePart(normalized(key)).utf8.prefix(2), as: UTF8.self))
    }

    /// The shard files, as (path, JavaScript).
    static func shards(_ model: ReportModel) -> [(String, String)] {
        var shards: [String: [String: [(label: String, href: String)]]] = [:]
        func add(_ key: String, _ label: String, _ href: String) {
            shards[shard(of: key), default: [:]][normalized(key), default: []].append((label, href))
        }
        for story in model.stories {
            let href = SiteLinks.binding(story.binding)
            add(story.binding.text, "Device binding \(story.binding)", href)
            for user in story.users { add(user.text, "Device binding \(story.binding) (identity \(user))", href) }
        }
        return (0..<256).map { number in
            let digits = Array("0123456789abcdef")
            let name = String([digits[number >> 4], digits[number & 0xF]])
            let entries = shards[name] ?? [:]
            var object: [(String, JSONValue)] = []
            for key in entries.keys.sorted() {
                object.append(
                    (
                        key,
                        .array(
                            entries[key]!.map { .array([.string($0.label), .string($0.href)]) })
                    ))
            }
            // Canonical JSON is valid JavaScript; `<` is escaped so no text can close a script element.
            let json = String(decoding: CanonicalJSON.encode(JSONObject(object)), as: UTF8.self)
                .replacing("<", with: "\\u003c")
            return ("search/\(name).js", "onymSearchShard(\"\(name)\", \(json));\n")
        }
    }

    static func page() -> String {
        let body = """
            <form action="search.html" method="get" role="search">
            <label for="q">Device binding or <code>onym:key:</code> identity</label>
            <input id="q" name="q" type="search" autocomplete="off" spellcheck="false" required>
            <button type="submit">Search</button>
            </form>
            <div id="results" aria-live="polite"></div>
            <noscript><p>Search needs JavaScript. Without it, browse the <a href="bindings/index.html">index of device
            bindings</a>, which lists every binding in order.</p></noscript>
            <p>Type the start of a device binding (<code>enrollment:…</code>) or of an identity
            (<code>onym:key:…</code>), with or without that prefix and in any letter case: at least two characters
            after it.</p>

            """
        return HTML.page(title: "Search", depth: 0, body: body, script: "search.js")
    }
}
