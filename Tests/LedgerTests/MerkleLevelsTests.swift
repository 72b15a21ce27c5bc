import Testing

@testable import LedgerFormat

/// ``MerkleLevels`` (the report's proofs of every record) makes exactly the proofs and roots that hashing
/// from the leaves makes (RFC 6962 §2.1.1, ``Merkle/inclusionProof(index:leaves:)``, `prove`'s), for every leaf
/// of every tree size up to 70 and of every prefix, and the proofs check.
@Suite("Transparency: proofs from stored levels")
struct MerkleLevelsTests {
    @Test func levelsMakeTheProofsTheLeavesMake() {
        let leaves = (0..<70).map { Merkle.leafHash([UInt8(truncatingIfNeeded: $0), 0x2A]) }
        let levels = MerkleLevels(leaves: leaves)
        for size in 1...leaves.count {
            let root = Merkle.root(leaves[..<size])
            #expect(levels.root(0..<size) == root)
            for index in 0..<size {
                let proof = levels.inclusionProof(index: index, size: size)
                #expect(
                    proof == Merkle.inclusionProof(index: index, leaves: leaves[..<size]), "leaf \(index) of \(size)")
                #expect(
                    Merkle.verifyInclusion(leaf: leaves[index], index: index, size: size, proof: proof, root: root))
            }
        }
    }
}
