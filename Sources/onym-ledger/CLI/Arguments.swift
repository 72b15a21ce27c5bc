/// A small, strict argument reader: `--name value`, `--name=value`, repeated options, flags and
/// positionals; anything left unconsumed is a usage error (no silent typos).
struct Arguments {
    private var items: [String]
    private var consumed: [Bool]

    init(_ items: [String]) {
        self.items = items
        self.consumed = Array(repeating: false, count: items.count)
    }

    var wantsHelp: Bool { items.contains("--help") || items.contains("-h") }

    /// Removes and returns every value of `--name` (or `--name=value`).
    mutating func options(_ name: String) throws(CLIError) -> [String] {
        var values: [String] = []
        var index = 0
        while index < items.count {
            defer { index += 1 }
            guard !consumed[index] else { continue }
            let item = items[index]
            if item == name {
                guard index + 1 < items.count, !consumed[index + 1] else {
                    throw .usage("\(name) needs a value")
                }
                consumed[index] = true
                consumed[index + 1] = true
                values.append(items[index + 1])
                index += 1
            } else if item.hasPrefix(name + "=") {
                consumed[index] = true
                values.append(String(item.dropFirst(name.count + 1)))
            }
        }
        return values
    }

    /// The single value of `--name`, if given; more than one is a usage error.
    mutating func option(_ name: String) throws(CLIError) -> String? {
        let values = try options(name)
        guard values.count <= 1 else { throw .usage("\(name) may be given once") }
        return values.first
    }

    /// Reads the first argument when it is one of `names`: a sub-verb, which comes first (`witness serve …`).
    mutating func subverb(_ names: [String]) -> String? {
        guard let first = items.first, !consumed[0], names.contains(first) else { return nil }
        consumed[0] = true
        return first
    }

    /// Whether `name` is among the arguments not yet read (nothing is consumed).
    func contains(_ name: String) -> Bool {
        items.indices.contains { !consumed[$0] && items[$0] == name }
    }

    mutating func flag(_ name: String) -> Bool {
        var found = false
        for index in items.indices where !consumed[index] && items[index] == name {
            consumed[index] = true
            found = true
        }
        return found
    }

    /// The remaining arguments, which must all be positionals (no leftover `--options`).
    mutating func positionals() throws(CLIError) -> [String] {
        var result: [String] = []
        for index in items.indices where !consumed[index] {
            let item = items[index]
            if item.hasPrefix("-") && item != "-" { throw .usage("unknown option \(item)") }
            consumed[index] = true
            result.append(item)
        }
        return result
    }
}
