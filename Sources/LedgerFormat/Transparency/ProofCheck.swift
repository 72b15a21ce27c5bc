/// Checking a tlog-proof without the ledger (`check-proof`): the checkpoint's log signature,
/// the witnesses' cosignatures against a quorum, the inclusion proof against the checkpoint's root, and —
/// when the record itself is given — that it is the file the proof's leaf states.
public enum ProofCheck {
    public struct Outcome: Sendable {
        public let head: TreeHead
        public let index: Int
        /// The leaf's statement: the file's path in the ledger.
        public let path: String?
        /// Witnesses whose valid cosignature counts, with its time.
        public let cosigners: [(name: String, time: Int64)]
    }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// - Parameters:
    ///   - maxAge: with `now`, cosignatures older than this many seconds do not count.
    public static func check(
        _ proof: TlogProof, logKey: NoteKey, witnesses: [NoteKey] = [], quorum: Int = 0, record: [UInt8]? = nil,
        now: Int64? = nil, maxAge: Int64? = nil
    ) throws(Failure) -> Outcome {
        let note: SignedNote
        do {
            note = try SignedNote(parsing: proof.checkpoint)
        } catch {
            throw Failure(description: "the checkpoint is not a signed note: \(error.description)")
        }
        guard note.isSigned(by: logKey) else {
            throw Failure(description: "the checkpoint carries no valid signature by the log key \(logKey)")
        }
        guard let head = TreeHead(text: note.text), head.origin.hasSameBytes(as: logKey.name) else {
            throw Failure(description: "the checkpoint is not a checkpoint of \(logKey.name)")
        }
        var cosigners: [(String, Int64)] = []
        var missing: [String] = []
        // A witness is its key: one key under several names counts once (docs/VERIFY.md, "Witness quorum").
        for witness in Cosignature.witnesses(witnesses) {
            let name = Cosignature.witnessName(witness)
            guard
                let (signer, time) = witness.lazy.compactMap({ key in
                    Cosignature.verifiedTime(of: note, by: key).map { (key, $0) }
                }).first
            else {
                missing.append("\(name) (no valid cosignature)")
                continue
            }
            if let now, let maxAge, time < now - maxAge {
                missing.append("\(name) (cosigned at \(Instant(seconds: time).rfc3339), older than \(maxAge) s)")
                continue
            }
            cosigners.append((signer.name, time))
        }
        guard cosigners.count >= quorum else {
            throw Failure(
                description: "\(cosigners.count) of the \(quorum) witness cosignatures needed; missing: "
                    + missing.joined(separator: ", "))
        }
        guard let entry = proof.extra else {
            throw Failure(description: "the proof carries no leaf entry (extra line)")
        }
        guard
            Merkle.verifyInclusion(
                leaf: Merkle.leafHash(entry), index: proof.index, size: head.size, proof: proof.hashes, root: head.root)
        else {
            throw Failure(
                description: "the inclusion proof does not lead from leaf \(proof.index) to the checkpoint's root")
        }
        let statement = try? CanonicalJSON.parse(entry)
        if let record {
            // A record saved from `show` ends in a newline the stored file does not have.
            let candidates = record.last == 0x0A ? [record, Array(record.dropLast())] : [record]
            guard case .string(let stated)? = statement?["sha256"],
                candidates.contains(where: { SHA256.hash($0).hex == stated })
            else {
                throw Failure(description: "the record given is not the file the proof's leaf states")
            }
        }
        return Outcome(head: head, index: proof.index, path: statement?["path"]?.stringValue, cosigners: cosigners)
    }
}
