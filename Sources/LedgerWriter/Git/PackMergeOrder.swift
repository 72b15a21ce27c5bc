import LedgerStore

/// Where each entry of packs being merged goes in the merged pack's index: a k-way merge of the packs' ids
/// (each index lists its ids ascending), which also finds an id more than one pack holds — kept once, from
/// the first pack given (the oldest). One pass over ids already in order, instead of a hash set of every id
/// and a sort of the merged entries (BENCHMARKS.md, "a pack merge without a hash set or a comparison sort").
struct PackMergeOrder {
    /// A rank of an entry the merged pack leaves out: an earlier pack holds its id.
    static let dropped = UInt32.max

    /// For each pack, by position in its ids: the entry's position in the merged index, or ``dropped``.
    let ranks: [[UInt32]]
    /// How many entries the merged pack holds.
    let count: Int

    /// Nil when a pack's ids are not strictly ascending (an index git would not have written), or when
    /// the merged pack would hold 2^32 entries or more (more than a pack's header can count).
    init?(_ packs: [[PackedObjectID]]) {
        for ids in packs {
            for (earlier, later) in zip(ids, ids.dropFirst()) where !(earlier < later) { return nil }
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
            // Every pack's head holding the same id moves past it, left out.
            for pack in packs.indices where heads[pack] < packs[pack].count && packs[pack][heads[pack]] == id {
                heads[pack] += 1
            }
        }
        self.ranks = ranks
        count = next
    }
}
