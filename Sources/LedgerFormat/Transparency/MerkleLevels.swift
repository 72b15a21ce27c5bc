/// Every complete subtree's hash of a Merkle tree, level by level, so that an inclusion proof costs
/// O(log² n) hashes instead of the O(n) of hashing from the leaves: what the public report uses to prove
/// every record it shows (one proof per record, hundreds of thousands in a large ledger).
///
/// The proofs are RFC 6962 §2.1.1's PATH(m, D[n]), made by the same recursion as
/// ``Merkle/inclusionProof(index:leaves:)``; only where the subtree roots come from differs.
public struct MerkleLevels: Sendable {
    /// `levels[k][i]` is MTH of leaves `i·2^k ..< (i+1)·2^k`; `levels[0]` the leaf hashes.
    private let levels: [[Merkle.Hash]]

    public init(leaves: [Merkle.Hash]) {
        var levels = [leaves]
        while levels.last!.count >= 2 {
            let below = levels.last!
            levels.append((0..<(below.count / 2)).map { Merkle.nodeHash(below[2 * $0], below[2 * $0 + 1]) })
        }
        self.levels = levels
    }

    /// How many leaves the tree has.
    public var size: Int { levels[0].count }

    /// MTH of the leaves in `range`: a stored level where the range is a complete, aligned subtree, else
    /// RFC 6962's split into the largest power of two and the rest.
    public func root(_ range: Range<Int>) -> Merkle.Hash {
        let count = range.count
        if count == 0 { return Merkle.emptyRoot }
        if count & (count - 1) == 0, range.lowerBound % count == 0 {
            return levels[count.trailingZeroBitCount][range.lowerBound / count]
        }
        let middle = range.lowerBound + Merkle.split(count)
        return Merkle.nodeHash(root(range.lowerBound..<middle), root(middle..<range.upperBound))
    }

    /// The inclusion proof of leaf `index` in the tree of the first `size` leaves (default: all).
    public func inclusionProof(index: Int, size: Int? = nil) -> [Merkle.Hash] {
        let size = size ?? self.size
        precondition(index >= 0 && index < size && size <= self.size)
        return Merkle.inclusionProof(index: index, in: 0..<size, root: root)
    }
}
