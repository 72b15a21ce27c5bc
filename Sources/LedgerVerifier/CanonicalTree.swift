/// The canonical form of a git tree object, as `git fsck --strict` demands it and as a ledger allows
/// it: entries sorted in git's order, names unique, no name empty or containing `/`, no
/// `.`, `..` or `.git` (in any case), and only the modes a ledger uses, written without zero padding —
/// `40000` for a folder, `100644` for a file. The verifier reads every new tree's raw bytes with this, and
/// joins those bytes with the parent's tree (`RawTree`) rather than letting libgit2 interpret them, so the
/// verifier and stock git can never see two different ledgers in the same objects (libgit2 normalizes
/// modes and looks names up by binary search). The entries come back as places in the bytes, no name
/// copied.
enum CanonicalTree {
    /// The entries of `bytes`, or why the tree is not canonical.
    static func parse(_ bytes: [UInt8]) -> Result<[RawTreeEntry], TreeViolation> {
        bytes.withUnsafeBufferPointer { buffer in parse(buffer) }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<[RawTreeEntry], TreeViolation> {
        var entries: [RawTreeEntry] = []
        var index = 0
        // The files' names, kept once a folder follows a file: a file and a folder of one name need not be
        // neighbours (`a`, `a-b`, `a/` are in git's order), while two files or two folders of one name are.
        var fileNames: Set<[UInt8]>?
        var hasFiles = false
        func name(_ entry: RawTreeEntry) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: bytes[entry.nameStart..<entry.nameEnd])
        }
        while index < bytes.count {
            var space = index
            while space < bytes.count, bytes[space] != 0x20 { space += 1 }
            guard space < bytes.count else { return .failure(.init("a truncated entry")) }
            var nul = space + 1
            while nul < bytes.count, bytes[nul] != 0 { nul += 1 }
            guard nul + 21 <= bytes.count else { return .failure(.init("a truncated entry")) }
            let mode = UnsafeBufferPointer(rebasing: bytes[index..<space])
            let isTree = mode.elementsEqual(folderMode)
            guard isTree || mode.elementsEqual(fileMode) else {
                let modeText = String(decoding: mode, as: UTF8.self)
                return .failure(
                    .init(
                        "entry '\(shown(bytes[(space + 1)..<nul]))' has mode \(modeText); only 40000 (folder) and 100644 (file)"
                    ))
            }
            let entry = RawTreeEntry(nameStart: space + 1, nameEnd: nul, mode: isTree ? 0o040000 : 0o100644)
            let entryName = name(entry)
            if let reason = nameViolation(entryName) {
                return .failure(.init("entry '\(shown(entryName))': \(reason)"))
            }
            if isTree, hasFiles, fileNames == nil {
                fileNames = Set(entries.lazy.filter { !$0.isTree }.map { Array(name($0)) })
            }
            let inOrder = entries.last.map { precedes(name($0), $0.isTree, entryName, isTree) } ?? true
            // Out of order, an earlier entry of the same name is what is reported (as it always was); in
            // order, only a file before a folder of its name can repeat one.
            if inOrder
                ? isTree && fileNames?.contains(Array(entryName)) == true
                : entries.contains(where: { name($0).elementsEqual(entryName) })
            {
                return .failure(
                    .init("entry '\(shown(entryName))' appears twice (git and libgit2 would read different ones)"))
            }
            if let previous = entries.last, !inOrder {
                return .failure(
                    .init(
                        "entries are not in git's order ('\(shown(entryName))' after '\(shown(name(previous)))')"))
            }
            if !isTree {
                hasFiles = true
                fileNames?.insert(Array(entryName))
            }
            entries.append(entry)
            index = nul + 21
        }
        return .success(entries)
    }

    private static let folderMode = Array("40000".utf8)
    private static let fileMode = Array("100644".utf8)

    private static func shown(_ name: some Collection<UInt8>) -> String { String(decoding: name, as: UTF8.self) }

    private static func nameViolation(_ name: UnsafeBufferPointer<UInt8>) -> String? {
        if name.isEmpty { return "an empty name" }
        if name.contains(0x2F) { return "a name containing '/'" }
        if name.elementsEqual([0x2E]) || name.elementsEqual([0x2E, 0x2E]) { return "a name that is '.' or '..'" }
        if name.count == 4, String(decoding: name, as: UTF8.self).lowercased() == ".git" {
            return "a name that is .git"
        }
        return nil
    }

    /// git's tree order: names compared bytewise, a folder's name as if it ended in `/`.
    private static func precedes(
        _ a: UnsafeBufferPointer<UInt8>, _ aIsTree: Bool, _ b: UnsafeBufferPointer<UInt8>, _ bIsTree: Bool
    ) -> Bool {
        let common = min(a.count, b.count)
        for index in 0..<common where a[index] != b[index] { return a[index] < b[index] }
        // One name is the other's start: the next byte decides, a folder's being `/` and a file's none.
        let nextA = common < a.count ? Int(a[common]) : (aIsTree ? 0x2F : -1)
        let nextB = common < b.count ? Int(b[common]) : (bIsTree ? 0x2F : -1)
        return nextA < nextB
    }
}

/// One entry of a tree object, as places in its bytes (`<octal mode> <name>\0<20-byte id>`): no name copied.
/// Here, beside the canonical check that makes them, so that the git-object fuzzer builds this file alone.
struct RawTreeEntry {
    let nameStart: Int
    let nameEnd: Int
    /// The mode as its octal digits say.
    let mode: UInt32
    var isTree: Bool { mode & 0o170000 == 0o040000 }
    /// Where the next entry starts: after the name's NUL and the 20-byte id.
    var end: Int { nameEnd + 21 }
}

struct TreeViolation: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
