/// The C2SP tlog-tiles files of a log: hash tiles of height 8 and entry bundles, computed from its
/// entries (`publish` writes them to a folder any static host serves).
public struct TileSet: Sendable {
    /// Leaf hashes, then at each tile level the hashes of complete 256^level-leaf subtrees.
    public let levels: [[Merkle.Hash]]
    public let entries: [[UInt8]]

    public init(entries: [[UInt8]]) {
        self.entries = entries
        var levels: [[Merkle.Hash]] = [entries.map { Merkle.leafHash($0) }]
        while levels.last!.count >= TilePath.width {
            let below = levels.last!
            levels.append(
                (0..<(below.count / TilePath.width)).map { tile in
                    Merkle.root(below[(tile * TilePath.width)..<((tile + 1) * TilePath.width)])
                })
        }
        self.levels = levels
    }

    public var size: Int { entries.count }
    public var root: Merkle.Hash { Merkle.root(levels[0]) }

    /// Every file (path → bytes) of the tree of `size` leaves, or only those a publication at
    /// `publishedSize` does not already hold: full tiles completed since, and the new partial tiles
    /// (earlier partial tiles stay: they are prefixes of the later ones, and clients of that size read them).
    public func files(publishedSize: Int = 0) -> [(path: String, bytes: [UInt8])] {
        var files: [(String, [UInt8])] = []
        let already = Set(TilePath.tiles(size: publishedSize).map { "\($0.level)/\($0.index)/\($0.width)" })
        for tile in TilePath.tiles(size: size) where !already.contains("\(tile.level)/\(tile.index)/\(tile.width)") {
            let start = tile.index * TilePath.width
            let hashes = levels[tile.level][start..<(start + tile.width)]
            files.append(
                (TilePath.hashTile(level: tile.level, index: tile.index, width: tile.width), hashes.flatMap(\.bytes)))
            if tile.level == 0 {
                var bundle: [UInt8] = []
                for entry in entries[start..<(start + tile.width)] {
                    precondition(entry.count <= 0xFFFF, "an entry over 65 535 bytes cannot be bundled")
                    bundle += [UInt8(entry.count >> 8), UInt8(entry.count & 0xFF)] + entry
                }
                files.append((TilePath.entryBundle(index: tile.index, width: tile.width), bundle))
            }
        }
        return files
    }
}
