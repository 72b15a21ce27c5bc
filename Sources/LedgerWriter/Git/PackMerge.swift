internal import CLibgit2
import LedgerStore

#if canImport(Glibc)
    import Glibc
#endif

/// One geometric merge of a repository's smallest packs (``Repository/consolidatePacks()``) in its three
/// steps: planned from the pack folder, written as a new pack beside the packs it merges, and those packs
/// removed. Between the second step and the third every object of the merged packs is in two packs, which git
/// and libgit2 read as they read any object held twice; so the writing may run on another thread while
/// the ledger is read and appended to (``BackgroundPackMerges``), and the removal waits for a moment when
/// nothing reads.
struct PackMerge: Sendable {
    /// The repository's git folder.
    let gitDirectory: String
    /// Its `objects/pack/` folder.
    let directory: String
    /// The names of the packs merged (without `.pack`), oldest first.
    let packs: [String]
    /// When the newest of them was written: the merged pack's date, so that packs written while it was being
    /// written stay newer than it and a later merge keeps their objects after its.
    let newest: (seconds: Int, nanoseconds: Int)

    /// The merge the packs in `gitDirectory` call for now: when more than ``Repository/packLimit`` packs
    /// exist, the smallest ones — every pack not at least twice as large as all smaller packs together.
    /// Nil when no merge is needed, or a pack's date could not be read.
    static func planned(gitDirectory: String) -> PackMerge? {
        let directory = PackFolder.path(gitDirectory: gitDirectory)
        // Sizes from the index headers (1 KiB each): the ids of the big packs, millions at 10^6 entries,
        // are never read when only small packs merge.
        var packs = Repository.packNames(in: directory).compactMap { name -> (name: String, count: Int)? in
            guard let count = PackEntries.count(inIndex: directory + name + ".idx") else { return nil }
            return (name, count)
        }
        guard packs.count > Repository.packLimit else { return nil }
        packs.sort { $0.count < $1.count }
        var total = 0
        var merge = 0
        while merge < packs.count, merge < 2 || packs[merge].count < 2 * total {
            total += packs[merge].count
            merge += 1
        }
        guard merge >= 2 else { return nil }
        // Oldest pack first, each in its own order: the merged pack keeps the objects in the order they were
        // written — a commit's trees and blobs side by side — so a reader walking history reads it front to
        // back. (In id order, every commit's objects were spread over the whole pack: a full verify at 10^6
        // entries touched all of a 640 MB pack and kept it resident.)
        let dated = packs[..<merge].compactMap { pack -> (name: String, at: (seconds: Int, nanoseconds: Int))? in
            guard let at = Repository.writtenAt(directory + pack.name + ".pack") else { return nil }
            return (pack.name, at)
        }.sorted { $0.at < $1.at }
        guard dated.count == merge else { return nil }
        return PackMerge(
            gitDirectory: gitDirectory, directory: directory, packs: dated.map(\.name), newest: dated.last!.at)
    }

    /// Writes the merged pack, visible once its index is (``PackWriter``); the merged packs stay in place.
    /// An object several packs hold is written once, from the oldest; each entry is copied as its pack
    /// stores it once its CRC matches the index's, and an entry stored as a delta (from `repack`) is read
    /// whole through libgit2 and deflated again, since its base may not sit where it did.
    /// - Returns: the merged pack's name; nil when a pack is gone or its index unreadable (nothing written).
    func write() throws(GitError) -> String? {
        var listings: [(name: String, entries: PackEntries)] = []
        for pack in packs {
            guard let entries = PackEntries(pack, in: directory) else { return nil }
            listings.append((pack, entries))
        }
        // The merged index's order comes from the packs' indexes, already in id order.
        guard let order = PackMergeOrder(listings.map(\.entries.ids)) else { return nil }
        // Opened for the first delta entry only: most merges copy every entry.
        var source: Repository?
        do throws(PackWriter.PackError) {
            let writer = try PackWriter(directory: directory, count: order.count)
            var indexOrder = [UInt32](repeating: 0, count: order.count)
            var added: UInt32 = 0
            for (number, listing) in listings.enumerated() {
                let ranks = order.ranks[number]
                let entries = listing.entries
                try entries.forEachEntry(in: directory + listing.name + ".pack") {
                    (position, bytes) throws(PackWriter.PackError) in
                    let rank = ranks[position]
                    guard rank != PackMergeOrder.dropped else { return }
                    let id = entries.ids[position]
                    guard PackWriter.crc(bytes) == entries.crcs[position] else {
                        throw PackWriter.PackError(
                            description: "\(listing.name).pack: object \(id) does not match its index's CRC")
                    }
                    let type = (bytes[0] >> 4) & 0x07
                    if (1...4).contains(type) {
                        try writer.addEntry(id, bytes, crc: entries.crcs[position])
                    } else {
                        let object: PackWriter.Object
                        do throws(GitError) {
                            if source == nil { source = try Repository.open(gitDirectory) }
                            object = try source!.object(id.objectID)
                        } catch {
                            throw PackWriter.PackError(description: "object \(id) could not be read: \(error)")
                        }
                        try writer.add(object)
                    }
                    indexOrder[Int(rank)] = added
                    added += 1
                }
            }
            let name = try writer.finish(indexOrder: indexOrder)
            // Dated as the newest pack it merges, not as the moment it was finished: batches written meanwhile
            // are newer.
            let date = timespec(tv_sec: newest.seconds, tv_nsec: newest.nanoseconds)
            let times = [date, date]  // access and modification
            guard utimensat(AT_FDCWD, directory + name + ".pack", times, 0) == 0 else {
                throw PackWriter.PackError(description: "\(name).pack: its date could not be set (errno \(errno))")
            }
            // The merged pack's names durable before the packs it replaces are removed (`removeMerged`): a
            // crash between the two must not keep the removals and lose the renames.
            guard PackWriter.syncFolder(directory) else {
                throw PackWriter.PackError(description: "\(directory): the folder could not be synced")
            }
            return name
        } catch {
            throw GitError.fail(error.description)
        }
    }

    /// Removes the merged packs, all but `written` (a merge whose packs held nothing new writes the name of
    /// one of them again).
    func removeMerged(keeping written: String) {
        for pack in packs where pack != written {
            unlink(directory + pack + ".idx")
            unlink(directory + pack + ".pack")
        }
    }
}
