import LedgerStore

/// A tree object read from its bytes: each entry's place in them, no name copied (git's `gitformat-tree`:
/// `<octal mode> <name>\0<20-byte id>`, repeated). The verifier's walk of a commit merge-joins the old and
/// new trees on these (``changes(old:new:)``) rather than asking libgit2 to parse both objects again: the
/// new tree's bytes are read for the canonical-tree check anyway (`CanonicalTree`), and the old tree is
/// most often one the commit before read (`KeptTrees`).
struct RawTree {
    typealias Entry = RawTreeEntry

    let bytes: [UInt8]
    let entries: [Entry]

    init(bytes: [UInt8], entries: [Entry]) {
        self.bytes = bytes
        self.entries = entries
    }

    /// Any well-formed tree, canonical or not (an old tree was judged when it was new): nil when an entry
    /// is cut short or its mode is not octal digits — what libgit2's tree parser refuses too.
    init?(reading bytes: [UInt8]) {
        var entries: [Entry] = []
        let parsed = bytes.withUnsafeBufferPointer { buffer -> Bool in
            var index = 0
            while index < buffer.count {
                var mode: UInt32 = 0
                var cursor = index
                while cursor < buffer.count, buffer[cursor] != 0x20 {
                    let digit = buffer[cursor] &- 0x30
                    guard digit < 8, cursor - index < 7 else { return false }
                    mode = mode << 3 | UInt32(digit)
                    cursor += 1
                }
                guard cursor > index, cursor < buffer.count else { return false }
                let nameStart = cursor + 1
                var nul = nameStart
                while nul < buffer.count, buffer[nul] != 0 { nul += 1 }
                guard nul + 21 <= buffer.count else { return false }
                entries.append(Entry(nameStart: nameStart, nameEnd: nul, mode: mode))
                index = nul + 21
            }
            return true
        }
        guard parsed else { return nil }
        self.init(bytes: bytes, entries: entries)
    }

    /// The entry as the rest of the walk sees it: its name, id, mode and kind (libgit2's reading of a
    /// mode: a gitlink is a commit, a folder a tree, anything else a blob).
    func treeEntry(_ entry: Entry) -> TreeEntry {
        bytes.withUnsafeBytes { raw in
            TreeEntry(
                name: String(decoding: raw[entry.nameStart..<entry.nameEnd], as: UTF8.self),
                id: ObjectID(raw, at: entry.nameEnd + 1), mode: entry.mode)
        }
    }

    /// The entries that differ between two trees (nil: the empty tree), in git's order: an entry of the
    /// same name and kind on both sides with another id or mode is a pair; one on a side only is alone.
    /// This is libgit2's `git_tree_entry_cmp` merge-join over its parsed trees, with one shortcut: where
    /// the two trees' bytes begin alike, the entries there are the same and are passed over unread (an
    /// append adds its entries after the folder's earlier ones, so most of a large folder is skipped).
    static func changes(old: RawTree?, new: RawTree?) -> [(old: TreeEntry?, new: TreeEntry?)] {
        let olds = old?.entries ?? []
        let news = new?.entries ?? []
        var i = 0
        var j = 0
        if let old, let new {
            let same = commonPrefix(old.bytes, new.bytes)
            // Entries wholly inside the common bytes sit at the same places in both trees.
            while i < olds.count, j < news.count, olds[i].end <= same, news[j].end <= same {
                i += 1
                j += 1
            }
        }
        var changes: [(old: TreeEntry?, new: TreeEntry?)] = []
        while i < olds.count || j < news.count {
            guard i < olds.count else {
                changes.append((nil, new!.treeEntry(news[j])))
                j += 1
                continue
            }
            guard j < news.count else {
                changes.append((old!.treeEntry(olds[i]), nil))
                i += 1
                continue
            }
            let order = gitOrder(old!, olds[i], new!, news[j])
            if order == 0 {
                if olds[i].mode != news[j].mode || !sameID(old!, olds[i], new!, news[j]) {
                    changes.append((old!.treeEntry(olds[i]), new!.treeEntry(news[j])))
                }
                i += 1
                j += 1
            } else if order < 0 {
                changes.append((old!.treeEntry(olds[i]), nil))
                i += 1
            } else {
                changes.append((nil, new!.treeEntry(news[j])))
                j += 1
            }
        }
        return changes
    }

    /// git's order of two entries: names bytewise, a folder's name read as if it ended in `/` and a file's
    /// as if it ended in NUL (libgit2's `git_fs_path_cmp`). Zero: the same name and the same kind.
    private static func gitOrder(_ left: RawTree, _ a: Entry, _ right: RawTree, _ b: Entry) -> Int {
        left.bytes.withUnsafeBufferPointer { l in
            right.bytes.withUnsafeBufferPointer { r in
                let lengthA = a.nameEnd - a.nameStart
                let lengthB = b.nameEnd - b.nameStart
                let common = min(lengthA, lengthB)
                for offset in 0..<common {
                    let x = l[a.nameStart + offset]
                    let y = r[b.nameStart + offset]
                    if x != y { return Int(x) - Int(y) }
                }
                let nextA = common < lengthA ? Int(l[a.nameStart + common]) : (a.isTree ? 0x2F : 0)
                let nextB = common < lengthB ? Int(r[b.nameStart + common]) : (b.isTree ? 0x2F : 0)
                return nextA - nextB
            }
        }
    }

    private static func sameID(_ left: RawTree, _ a: Entry, _ right: RawTree, _ b: Entry) -> Bool {
        left.bytes.withUnsafeBytes { l in
            right.bytes.withUnsafeBytes { r in
                ObjectID(l, at: a.nameEnd + 1) == ObjectID(r, at: b.nameEnd + 1)
            }
        }
    }

    /// How many bytes `a` and `b` begin with alike, compared eight at a time.
    static func commonPrefix(_ a: [UInt8], _ b: [UInt8]) -> Int {
        a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                let count = min(x.count, y.count)
                var index = 0
                while index + 8 <= count,
                    x.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                        == y.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                {
                    index += 8
                }
                while index < count, x[index] == y[index] { index += 1 }
                return index
            }
        }
    }
}

/// The trees the reading thread read for the last two commits, by id: a commit's changed folders are the
/// next commit's old side, so each is read (inflated and hashed) once rather than again as the next diff's
/// old tree. Bounded by what two commits change; used by one thread.
final class KeptTrees {
    private var current: [ObjectID: RawTree] = [:]
    private var previous: [ObjectID: RawTree] = [:]
    /// How many trees were found kept rather than read.
    private(set) var hits = 0

    /// Starts the next commit: what the commit before last read is let go.
    func turn() {
        previous = current
        current = [:]
    }

    func keep(_ id: ObjectID, _ tree: RawTree) { current[id] = tree }

    func tree(_ id: ObjectID) -> RawTree? {
        guard let tree = current[id] ?? previous[id] else { return nil }
        hits += 1
        return tree
    }
}
