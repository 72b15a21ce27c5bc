import LedgerStore

/// Where each entry of packs being merged goes in the merged pack's index: a k-way merge of the packs' ids
/// (each index lists its ids in order), which also finds an id held more than once — by more than one pack,
/// or twice by one (`git index-pack` without `--strict` accepts a pack with a repeated object) — and keeps it
/// once, from the first pack given (the oldest) and the first copy its index lists.
///
/// Each merged entry looks at every pack's next id: O(entries × packs), with the packs a merge takes (usually
/// the smallest of ``Repository/packLimit`` + 1, as ``Repository/consolidatePacks()`` chooses them).
struct PackMergeOrder {
    /// The rank of an entry the merged pack leaves out: its id is kept from an earlier pack or copy.
    static let dropped = UInt32.max

    /// For each pack, by position in its ids: the entry's position in the merged index, or ``dropped``.
    let ranks: [[UInt32]]
    /// How many entries the merged pack holds.
    let count: Int

    /// Nil when a pack's ids are out of order (an index git would not have written), or when the merged
    /// pack would hold 2^32 entries or more (more than a pack's header can count).
    init?(_ packs: [[PackedObjectID]]) {
        for ids in packs {
            for (earlier, later) in zip(ids, ids.dropFirst()) where later < earlier { return nil }
        }
        var ranks = packs.map { [UInt32](repeating: Self.dropped, count: $0.count) }
        var heads = [Int](repeating: 0, count: packs.count)
        var next = 0
        while true {
            // The smallest id at the packs' heads; on a tie, the earliest pack's.
            var smallest: Int?
            for pack in packs.indices where heads[pack] < packs[pack].count {
                if let current = smallest, !(packs[pack][heads[pack]] < packs[current][heads[current]]) { continue }
                smallest = pack
            }
            guard let taken = smallest else { break }
            guard next < Int(Self.dropped) else { return nil }
            let id = packs[taken][heads[taken]]
            ranks[taken][heads[taken]] = UInt32(next)
            next += 1
            // Every copy of the id, in every pack, is passed and left out.
            for pack in packs.indices {
                while heads[pack] < packs[pack].count && packs[pack][heads[pack]] == id { heads[pack] += 1 }
            }
        }
        self.ranks = ranks
        count = next
    }
}
