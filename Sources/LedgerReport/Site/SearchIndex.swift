import LedgerFormat

/// The search: `search.html` and 256 shard scripts `search/<xx>.js`, each listing the bindings and
/// identities whose FNV-1a hash ends in that byte (``SiteLinks/searchShard(_:)``) with the pages they lead
/// to. A search loads one shard: the site stays fast at 10^5+ bindings, and works from `file://`, where
/// pages cannot fetch files but can load scripts.
enum SearchIndex {
    /// The shard files, as (path, JavaScript).
    static func shards(_ model: ReportModel) -> [(String, String)] {
        var shards: [String: [String: [(label: String, href: String)]]] = [:]
        func add(_ key: String, _ label: String, _ href: String) {
            shards[SiteLinks.searchShard(key), default: [:]][key, default: []].append((label, href))
        }
        for story in model.stories {
            let href = SiteLinks.binding(story.binding)
            add(story.binding, "Device binding " + story.binding, href)
            for user in story.users { add(user, "Device binding \(story.binding) (identity \(user))", href) }
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
            <p>The search matches a whole device binding (<code>enrollment:…</code>) or a whole identity
            (<code>onym:key:…</code>) exactly.</p>

            """
        return HTML.page(title: "Search", depth: 0, body: body, script: "search.js")
    }
}
