/// The canonical form of a git tree object, as `git fsck --strict` demands it and as a ledger allows
/// it: entries sorted in git's order, names unique, no name empty or containing `/`, no
/// `.`, `..` or `.git` (in any case), and only the modes a ledger uses, written without zero padding —
/// `40000` for a folder, `100644` for a file. The verifier reads every new tree's raw bytes with this
/// before libgit2 interprets them, so the verifier and stock git can never see two different ledgers
/// in the same objects (libgit2 normalizes modes and looks names up by binary search).
enum CanonicalTree {
    struct Entry {
        let name: [UInt8]
        let isTree: Bool
    }

    /// The entries of `bytes`, or why the tree is not canonical.
    static func parse(_ bytes: [UInt8]) -> Result<[Entry], TreeViolation> {
        var entries: [Entry] = []
        var names: Set<[UInt8]> = []
        var index = 0
        while index < bytes.count {
            guard let space = bytes[index...].firstIndex(of: 0x20) else { return .failure(.init("a truncated entry")) }
            let mode = String(decoding: bytes[index..<space], as: UTF8.self)
            guard let nul = bytes[(space + 1)...].firstIndex(of: 0), nul + 21 <= bytes.count else {
                return .failure(.init("a truncated entry"))
            }
            let name = Array(bytes[(space + 1)..<nul])
            let shown = String(decoding: name, as: UTF8.self)
            guard mode == "40000" || mode == "100644" else {
                return .failure(.init("entry '\(shown)' has mode \(mode); only 40000 (folder) and 100644 (file)"))
            }
            if let reason = nameViolation(name) { return .failure(.init("entry '\(shown)': \(reason)")) }
            guard names.insert(name).inserted else {
                return .failure(.init("entry '\(shown)' appears twice (git and libgit2 would read different ones)"))
            }
            let entry = Entry(name: name, isTree: mode == "40000")
            if let previous = entries.last, !precedes(previous, entry) {
                return .failure(
                    .init(
                        "entries are not in git's order ('\(shown)' after '\(String(decoding: previous.name, as: UTF8.self))')"
                    ))
            }
            entries.append(entry)
            index = nul + 21
        }
        return .success(entries)
    }

    private static func nameViolation(_ name: [UInt8]) -> String? {
        if name.isEmpty { return "an empty name" }
        if name.contains(0x2F) { return "a name containing '/'" }
        if name == [0x2E] || name == [0x2E, 0x2E] { return "a name that is '.' or '..'" }
        if name.count == 4, String(decoding: name, as: UTF8.self).lowercased() == ".git" {
            return "a name that is .git"
        }
        return nil
    }

    /// git's tree order: names compared bytewise, a folder's name as if it ended in `/`.
    private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        let left = a.name + (a.isTree ? [0x2F] : [])
        let right = b.name + (b.isTree ? [0x2F] : [])
        return left.lexicographicallyPrecedes(right)
    }
}

struct TreeViolation: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
