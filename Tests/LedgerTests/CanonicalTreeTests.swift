import Testing

@testable import LedgerVerifier

/// The canonical-tree rule (`CanonicalTree.parse`) against a plain reading of it written here: every
/// name kept in a set, every order check on the names with a `/` appended to folders. Random trees —
/// names from a few bytes that sort around `/` (`-`, `.`, `0`, `a`), both modes and a wrong one, in order,
/// shuffled, with repeats — must give the same entries or the same reason.
@Suite("Canonical trees")
struct CanonicalTreeTests {
    /// What the rule says, read the plain way.
    static func oracle(_ bytes: [UInt8]) -> Result<[(name: [UInt8], isTree: Bool)], TreeViolation> {
        func fail(_ reason: String) -> Result<[(name: [UInt8], isTree: Bool)], TreeViolation> {
            .failure(TreeViolation(reason))
        }
        var entries: [(name: [UInt8], isTree: Bool)] = []
        var names: Set<[UInt8]> = []
        var index = 0
        while index < bytes.count {
            guard let space = bytes[index...].firstIndex(of: 0x20),
                let nul = bytes[(space + 1)...].firstIndex(of: 0), nul + 21 <= bytes.count
            else { return fail("a truncated entry") }
            let mode = String(decoding: bytes[index..<space], as: UTF8.self)
            let name = Array(bytes[(space + 1)..<nul])
            let shown = String(decoding: name, as: UTF8.self)
            guard mode == "40000" || mode == "100644" else {
                return fail("entry '\(shown)' has mode \(mode); only 40000 (folder) and 100644 (file)")
            }
            if name.isEmpty { return fail("entry '\(shown)': an empty name") }
            if name.contains(0x2F) { return fail("entry '\(shown)': a name containing '/'") }
            if name == [0x2E] || name == [0x2E, 0x2E] { return fail("entry '\(shown)': a name that is '.' or '..'") }
            guard names.insert(name).inserted else {
                return fail("entry '\(shown)' appears twice (git and libgit2 would read different ones)")
            }
            let isTree = mode == "40000"
            if let previous = entries.last {
                let left = previous.name + (previous.isTree ? [0x2F] : [])
                let right = name + (isTree ? [0x2F] : [])
                guard left.lexicographicallyPrecedes(right) else {
                    return fail(
                        "entries are not in git's order ('\(shown)' after '\(String(decoding: previous.name, as: UTF8.self))')"
                    )
                }
            }
            entries.append((name, isTree))
            index = nul + 21
        }
        return .success(entries)
    }

    static func tree(_ entries: [(mode: String, name: [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = []
        for entry in entries {
            bytes += Array(entry.mode.utf8)
            bytes.append(0x20)
            bytes += entry.name
            bytes.append(0)
            bytes += [UInt8](repeating: 0xAB, count: 20)
        }
        return bytes
    }

    @Test func agreesWithAPlainReadingOnRandomTrees() {
        var random = SeededGenerator(state: 20_261_202)  // the same trees on every run
        let alphabet: [UInt8] = [0x2D, 0x2E, 0x30, 0x61]  // '-', '.', '0', 'a'
        var outcomes: [String: Int] = [:]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...7, using: &random)
            var entries: [(mode: String, name: [UInt8])] = (0..<count).map { _ in
                let length = Int.random(in: 1...3, using: &random)
                let name = (0..<length).map { _ in alphabet.randomElement(using: &random)! }
                let mode =
                    Int.random(in: 0..<40, using: &random) == 0
                    ? "100755" : (Bool.random(using: &random) ? "40000" : "100644")
                return (mode, name)
            }
            if Int.random(in: 0..<4, using: &random) > 0 {
                // Mostly in git's order, so the later checks are reached.
                entries.sort {
                    ($0.name + ($0.mode == "40000" ? [0x2F] : [])).lexicographicallyPrecedes(
                        $1.name + ($1.mode == "40000" ? [0x2F] : []))
                }
            }
            let bytes = Self.tree(entries)
            let expected = Self.oracle(bytes)
            let found = CanonicalTree.parse(bytes)
            switch (expected, found) {
            case (.success(let want), .success(let got)):
                #expect(want.map(\.name) == got.map { Array(bytes[$0.nameStart..<$0.nameEnd]) })
                #expect(want.map(\.isTree) == got.map(\.isTree))
                outcomes["canonical", default: 0] += 1
            case (.failure(let want), .failure(let got)):
                #expect(want.reason == got.reason)
                let reason = want.reason
                let kind =
                    reason.contains("twice")
                    ? "twice" : reason.contains("git's order") ? "order" : reason.contains("mode") ? "mode" : "other"
                outcomes[kind, default: 0] += 1
            default:
                Issue.record("\(entries): expected \(expected), found \(found)")
            }
        }
        // The trees reached every outcome: canonical, repeated names (neighbours or not), out of order, wrong modes.
        #expect(outcomes["canonical", default: 0] > 1_000)
        #expect(outcomes["twice", default: 0] > 100)
        #expect(outcomes["order", default: 0] > 1_000)
        #expect(outcomes["mode", default: 0] > 100 && outcomes["other", default: 0] > 100, "\(outcomes)")
    }

    /// A file and a folder of one name with another name between them, in git's order: a repeat that only
    /// a memory of the files' names finds.
    @Test func aFileAndAFolderOfOneNameApartAreARepeat() {
        let bytes = Self.tree([("100644", Array("a".utf8)), ("100644", Array("a-b".utf8)), ("40000", Array("a".utf8))])
        guard case .failure(let violation) = CanonicalTree.parse(bytes) else {
            Issue.record("accepted")
            return
        }
        #expect(violation.reason == "entry 'a' appears twice (git and libgit2 would read different ones)")
    }
}
