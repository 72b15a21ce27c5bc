/// RFC 6962 §2.1 Merkle tree hashing, as C2SP tlog-tiles and tlog-checkpoint use it: leaf and
/// node hashes, the tree hash of a list of leaves, and audit paths — inclusion (§2.1.1) and consistency
/// (§2.1.2) — made and checked (RFC 9162 §2.1.3.2 and §2.1.4.2 give the checking algorithms).
public enum Merkle {
    public typealias Hash = ContentAddress

    /// `SHA-256(0x00 || entry)`.
    public static func leafHash(_ entry: some Collection<UInt8>) -> Hash {
        let hashed = entry.withContiguousStorageIfAvailable { SHA256.hash(prefix: 0x00, UnsafeRawBufferPointer($0)) }
        return hashed ?? Array(entry).withUnsafeBytes { SHA256.hash(prefix: 0x00, $0) }
    }

    /// `SHA-256(0x01 || left || right)`.
    public static func nodeHash(_ left: Hash, _ right: Hash) -> Hash {
        left.withUnsafeBytes { left in right.withUnsafeBytes { right in SHA256.hash(prefix: 0x01, left, right) } }
    }

    /// The tree hash of no leaves: SHA-256 of the empty string.
    public static let emptyRoot = SHA256.hash([UInt8]())

    /// The largest power of two smaller than `n` (n ≥ 2).
    static func split(_ n: Int) -> Int {
        var k = 1
        while k << 1 < n { k <<= 1 }
        return k
    }

    /// MTH(D[0:n]) over leaf hashes.
    public static func root(_ leaves: ArraySlice<Hash>) -> Hash {
        switch leaves.count {
        case 0: return emptyRoot
        case 1: return leaves[leaves.startIndex]
        default:
            let k = split(leaves.count)
            let middle = leaves.startIndex + k
            return nodeHash(root(leaves[..<middle]), root(leaves[middle...]))
        }
    }

    public static func root(_ leaves: [Hash]) -> Hash { root(leaves[...]) }

    // MARK: - Proofs (made from the leaves)

    /// PATH(m, D[n]): the inclusion proof of leaf `index`, from its sibling up to the root's child.
    public static func inclusionProof(index: Int, leaves: ArraySlice<Hash>) -> [Hash] {
        precondition(index >= 0 && index < leaves.count)
        return inclusionProof(index: leaves.startIndex + index, in: leaves.indices) { root(leaves[$0]) }
    }

    /// PATH(m, D[n]) for leaf `index` of the leaves in `range` (positions in the whole log), with `root`
    /// giving MTH of any sub-range: the one recursion of RFC 6962 §2.1.1, whether the subtree roots are
    /// hashed from the leaves (``inclusionProof(index:leaves:)``) or read from levels (``MerkleLevels``).
    static func inclusionProof(index: Int, in range: Range<Int>, root: (Range<Int>) -> Hash) -> [Hash] {
        guard range.count > 1 else { return [] }
        let middle = range.lowerBound + split(range.count)
        if index < middle {
            return inclusionProof(index: index, in: range.lowerBound..<middle, root: root) + [
                root(middle..<range.upperBound)
            ]
        }
        return inclusionProof(index: index, in: middle..<range.upperBound, root: root) + [
            root(range.lowerBound..<middle)
        ]
    }

    /// PROOF(m, D[n]): the consistency proof from the first `oldSize` leaves to all of them.
    public static func consistencyProof(oldSize: Int, leaves: ArraySlice<Hash>) -> [Hash] {
        precondition(oldSize >= 0 && oldSize <= leaves.count)
        guard oldSize > 0, oldSize < leaves.count else { return [] }
        return subproof(oldSize, leaves, complete: true)
    }

    private static func subproof(_ m: Int, _ leaves: ArraySlice<Hash>, complete: Bool) -> [Hash] {
        let n = leaves.count
        if m == n { return complete ? [] : [root(leaves)] }
        let k = split(n)
        let middle = leaves.startIndex + k
        if m <= k {
            return subproof(m, leaves[..<middle], complete: complete) + [root(leaves[middle...])]
        }
        return subproof(m - k, leaves[middle...], complete: false) + [root(leaves[..<middle])]
    }

    // MARK: - Checking proofs (RFC 9162)

    /// Whether `proof` shows leaf hash `leaf` at `index` in the tree of `size` leaves with root `root`.
    public static func verifyInclusion(leaf: Hash, index: Int, size: Int, proof: [Hash], root: Hash) -> Bool {
        guard index >= 0, index < size else { return false }
        var running = leaf
        let fits = climb(proof[...], first: index, last: size - 1) { sibling, isLeft in
            running = isLeft ? nodeHash(sibling, running) : nodeHash(running, sibling)
        }
        return fits && running == root
    }

    /// Whether `proof` shows the tree of `oldSize` leaves with root `oldRoot` to be a prefix of the tree of
    /// `newSize` leaves with root `newRoot`.
    public static func verifyConsistency(oldSize: Int, newSize: Int, oldRoot: Hash, newRoot: Hash, proof: [Hash])
        -> Bool
    {
        guard oldSize >= 0, oldSize <= newSize else { return false }
        if oldSize == newSize { return proof.isEmpty && oldRoot == newRoot }
        if oldSize == 0 { return proof.isEmpty }
        var path = proof[...]
        // When the old tree is a complete subtree on the left edge, its root is the first node.
        if oldSize & (oldSize - 1) == 0 { path = [oldRoot] + path }
        guard let first = path.first else { return false }
        var fn = oldSize - 1
        var sn = newSize - 1
        while fn & 1 == 1 {
            fn >>= 1
            sn >>= 1
        }
        var oldRunning = first
        var newRunning = first
        let fits = climb(path.dropFirst(), first: fn, last: sn) { sibling, isLeft in
            if isLeft {
                oldRunning = nodeHash(sibling, oldRunning)
                newRunning = nodeHash(sibling, newRunning)
            } else {
                newRunning = nodeHash(newRunning, sibling)
            }
        }
        return fits && oldRunning == oldRoot && newRunning == newRoot
    }

    /// RFC 9162's walk up an audit path from node `first` of a level whose last node is `last`: each proof
    /// hash is a left sibling (hashed before the running value) or a right one. False when the path does not
    /// end exactly at the root.
    private static func climb(
        _ path: ArraySlice<Hash>, first: Int, last: Int, _ visit: (Hash, _ isLeft: Bool) -> Void
    ) -> Bool {
        var fn = first
        var sn = last
        for hash in path {
            guard sn != 0 else { return false }
            if fn & 1 == 1 || fn == sn {
                visit(hash, true)
                while fn & 1 == 0 && fn != 0 {
                    fn >>= 1
                    sn >>= 1
                }
            } else {
                visit(hash, false)
            }
            fn >>= 1
            sn >>= 1
        }
        return sn == 0

    }
}

/// The right edge of a Merkle tree — the roots of its complete subtrees, largest first — enough to
/// append leaves and compute the root without keeping the leaves (O(log n) hashes): what the verifier
/// and the writer carry from commit to commit.
public struct CompactRange: Sendable, Equatable {
    public private(set) var size: Int = 0
    /// Roots of the complete subtrees the tree splits into, from the left (sizes are the set bits of `size`,
    /// largest first).
    public private(set) var peaks: [Merkle.Hash] = []

    public init() {}

    /// A range from its size and peaks (checkpoint state); nil when the count does not match the size.
    public init?(size: Int, peaks: [Merkle.Hash]) {
        guard size >= 0, peaks.count == size.nonzeroBitCount else { return nil }
        self.size = size
        self.peaks = peaks
    }

    public mutating func append(_ leaf: Merkle.Hash) {
        var hash = leaf
        var merged = size
        // Each trailing one bit of the old size is a peak the new leaf's subtree now completes.
        while merged & 1 == 1 {
            hash = Merkle.nodeHash(peaks.removeLast(), hash)
            merged >>= 1
        }
        peaks.append(hash)
        size += 1
    }

    /// MTH of the leaves appended so far.
    public var root: Merkle.Hash {
        guard var hash = peaks.last else { return Merkle.emptyRoot }
        for peak in peaks.dropLast().reversed() { hash = Merkle.nodeHash(peak, hash) }
        return hash
    }
}
