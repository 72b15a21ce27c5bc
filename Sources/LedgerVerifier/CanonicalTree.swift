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
        var index = 0
        // The files' names, kept once a folder follows a file: a file and a folder of one name need not be
        // neighbours (`a`, `a-b`, `a/` are in git's order), while two files or two folders of one name are.
        var fileNames: Set<[UInt8]>?
        var hasFiles = false
        while index < bytes.count {
            guard let space = bytes[index...].firstIndex(of: 0x20) else { return .failure(.init("a truncated entry")) }
            guard let nul = bytes[(space + 1)...].firstIndex(of: 0), nul + 21 <= bytes.count else {
                return .failure(.init("a truncated entry"))
            }
            let name = Array(bytes[(space + 1)..<nul])
            let mode = bytes[index..<space]
            let isTree = mode.elementsEqual(folderMode)
            guard isTree || mode.elementsEqual(fileMode) else {
                let modeText = String(decoding: mode, as: UTF8.self)
                return .failure(
                    .init("entry '\(shown(name))' has mode \(modeText); only 40000 (folder) and 100644 (file)"))
            }
            if let reason = nameViolation(name) { return .failure(.init("entry '\(shown(name))': \(reason)")) }
            if isTree, hasFiles, fileNames == nil {
                fileNames = Set(entries.lazy.filter { !$0.isTree }.map(\.name))
            }
            let entry = Entry(name: name, isTree: isTree)
            let inOrder = entries.last.map { precedes($0, entry) } ?? true
            // Out of order, an earlier entry of the same name is what is reported (as it always was); in
            // order, only a file before a folder of its name can repeat one.
            if inOrder ? isTree && fileNames?.contains(name) == true : entries.contains(where: { $0.name == name }) {
                return .failure(
                    .init("entry '\(shown(name))' appears twice (git and libgit2 would read different ones)"))
            }
            if let previous = entries.last, !inOrder {
                return .failure(
                    .init("entries are not in git's order ('\(shown(name))' after '\(shown(previous.name))')"))
            }
            if !isTree {
                hasFiles = true
                fileNames?.insert(name)
            }
            entries.append(entry)
            index = nul + 21
        }
        return .success(entries)
    }

    private static let folderMode = Array("40000".utf8)
    private static let fileMode = Array("100644".utf8)

    private static func shown(_ name: [UInt8]) -> String { String(decoding: name, as: UTF8.self) }

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
        let common = min(a.name.count, b.name.count)
        for index in 0..<common where a.name[index] != b.name[index] { return a.name[index] < b.name[index] }
        // One name is the other's start: the next byte decides, a folder's being `/` and a file's none.
        func next(_ entry: Entry) -> Int {
            common < entry.name.count ? Int(entry.name[common]) : (entry.isTree ? 0x2F : -1)
        }
        return next(a) < next(b)
    }
}

struct TreeViolation: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
