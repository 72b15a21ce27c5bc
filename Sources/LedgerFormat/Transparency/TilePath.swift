/// C2SP tlog-tiles paths: `tile/<L>/<N>[.p/<W>]` and `tile/entries/<N>[.p/<W>]`, where `<N>` is written in
/// zero-padded groups of three digits, all but the last prefixed with `x` (1234067 → `x001/x234/067`).
public enum TilePath {
    public static let height = 8
    public static let width = 256

    public static func index(_ n: Int) -> String {
        precondition(n >= 0)
        var groups: [String] = []
        var rest = n
        repeat {
            let group = String(rest % 1000)
            groups.append(String(repeating: "0", count: 3 - group.count) + group)
            rest /= 1000
        } while rest > 0
        groups.reverse()
        return groups.enumerated().map { $0.offset < groups.count - 1 ? "x" + $0.element : $0.element }
            .joined(separator: "/")
    }

    /// A hash tile at `level`; `width` below 256 names a partial tile.
    public static func hashTile(level: Int, index n: Int, width: Int) -> String {
        "tile/\(level)/\(index(n))" + (width < Self.width ? ".p/\(width)" : "")
    }

    public static func entryBundle(index n: Int, width: Int) -> String {
        "tile/entries/\(index(n))" + (width < Self.width ? ".p/\(width)" : "")
    }

    /// Every tile (level, index, width) a tree of `size` leaves has, level 0 first.
    public static func tiles(size: Int) -> [(level: Int, index: Int, width: Int)] {
        var tiles: [(Int, Int, Int)] = []
        var level = 0
        var count = size  // hashes at this level: complete subtrees of 256^level leaves
        while count > 0 {
            for n in 0..<(count / width) { tiles.append((level, n, width)) }
            if count % width > 0 { tiles.append((level, count / width, count % width)) }
            count /= width
            level += 1
        }
        return tiles
    }
}
