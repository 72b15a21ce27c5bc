public import LedgerFormat
internal import LedgerStore

/// `cosign`: anyone — an auditor, an authority — acting as a C2SP witness for a ledger's log.
///
/// The witness verifies the ledger, checks that the tip's checkpoint is consistent with the last checkpoint
/// it cosigned for that log (an RFC 6962 consistency proof, as tlog-witness's add-checkpoint does), and
/// only then adds its cosignature/v1 line. What it cosigned last is its own state — a file per log and
/// witness key under the state folder, never in the ledger — so two witnesses who both cosign see a
/// split view the moment the other branch reaches either of them.
public enum Witness {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        /// The log shown now does not extend the one cosigned before: a split view or a rollback.
        public let isInconsistent: Bool
    }

    public struct Cosigned: Sendable {
        /// The tip's checkpoint with its log signature and this witness's cosignature line (what `append`
        /// stores under `cosignatures/` and what travels with `publish` and `prove`).
        public let note: SignedNote
        public let key: NoteKey
        public let previousSize: Int?
    }

    public static func cosign(
        _ log: LedgerLogView, name: String, signer: any CommitSigner, stateRoot: String, now: Int64
    ) throws(Failure) -> Cosigned {
        guard let tip = log.tip, let note = try? SignedNote(parsing: tip.note), let head = TreeHead(text: note.text)
        else { throw Failure(description: "the ledger has no checkpoint to cosign", isInconsistent: false) }
        guard let key = NoteKey(name: name, type: NoteKey.cosignatureV1, publicKey: signer.publicKey) else {
            throw Failure(description: "\(name) is not a witness name (no spaces or '+')", isInconsistent: false)
        }
        let path = WitnessMemory.path(stateRoot: stateRoot, origin: head.origin, key: key)
        var previousSize: Int?
        let memory: WitnessMemory?
        do {
            memory = try WitnessMemory.load(path)
        } catch {
            throw Failure(description: error.description, isInconsistent: false)
        }
        if let memory {
            // The proof is made from the leaves the tip's checkpoint covers; an older size past it is a rollback.
            let covered = min(head.size, log.size)
            let proof = Merkle.consistencyProof(
                oldSize: min(memory.size, covered), leaves: log.tiles.levels[0][..<covered])
            guard memory.size <= head.size,
                Merkle.verifyConsistency(
                    oldSize: memory.size, newSize: head.size, oldRoot: memory.root, newRoot: head.root, proof: proof)
            else {
                throw Failure(
                    description: """
                        split view: this witness cosigned \(head.origin) at size \(memory.size) with root \
                        \(Base64.encode(memory.root.bytes)), and the log shown now (size \(head.size), root \
                        \(Base64.encode(head.root.bytes))) does not extend it; not cosigned (state: \(path))
                        """, isInconsistent: true)
            }
            previousSize = memory.size
        }
        let line: SignedNote.Signature
        do {
            line = try Cosignature.sign(body: note.text, time: now, key: key, signer: signer)
        } catch {
            throw Failure(description: "signing the cosignature: \(error.description)", isInconsistent: false)
        }
        // Remembered before the cosignature is handed out: a witness never signs two inconsistent heads.
        do {
            try WitnessMemory(origin: head.origin, size: head.size, root: head.root, time: now).save(to: path)
        } catch {
            throw Failure(description: "\(error)", isInconsistent: false)
        }
        var cosigned = note
        cosigned.signatures =
            note.signatures.filter { $0.keyID != key.keyID || !$0.name.hasSameBytes(as: key.name) } + [line]
        return Cosigned(note: cosigned, key: key, previousSize: previousSize)
    }

    /// Whether at least `quorum` of `witnesses` cosigned the checkpoint in force at the tip (the
    /// `cosignatures/` files the ledger stores), each no older than `maxAge`; the findings say who is
    /// missing and why. A witness is its key (docs/VERIFY.md, "Witness quorum"): a key given twice, or under
    /// two names, counts once, whichever of its names' files holds the valid cosignature.
    static func quorumFindings(
        repository: Repository, tip: ObjectID, checkpointBody: String?, witnesses: [NoteKey], quorum: Int,
        now: Int64, maxAge: Int64?
    ) -> [PolicyFailure] {
        var valid: [String] = []
        var missing: [String] = []
        for witness in Cosignature.witnesses(witnesses) {
            var reasons: [String] = []
            for name in witness {
                guard
                    let reason = missingReason(
                        repository: repository, tip: tip, checkpointBody: checkpointBody, witness: name, now: now,
                        maxAge: maxAge)
                else {
                    valid.append(name.name)
                    reasons = []
                    break
                }
                reasons.append("\(name.name): \(reason)")
            }
            missing += reasons
        }
        guard valid.count < quorum else { return [] }
        return [
            PolicyFailure(
                policy: "WitnessQuorum", kind: .witness, commit: tip,
                reason: "\(valid.count) of the \(quorum) witness cosignatures required on the tip's checkpoint"
                    + (valid.isEmpty ? "" : " (valid: \(valid.joined(separator: ", ")))") + "; "
                    + missing.joined(separator: "; "))
        ]
    }

    /// Why `witness`'s stored cosignature does not count at the tip, nil when it does.
    private static func missingReason(
        repository: Repository, tip: ObjectID, checkpointBody: String?, witness: NoteKey, now: Int64, maxAge: Int64?
    ) -> String? {
        let path = LedgerLayout.cosignaturePath(keyID: witness.keyID)
        guard let bytes = try? repository.blob(at: path, inCommit: tip, limit: Limits.maxRecordBytes),
            let note = try? SignedNote(parsing: String(decoding: bytes, as: UTF8.self))
        else { return "no cosignature in the ledger (\(path))" }
        guard let checkpointBody, note.text.hasSameBytes(as: checkpointBody) else {
            let size = TreeHead(text: note.text)?.size.description ?? "?"
            return "cosigned an older checkpoint (size \(size)), not the tip's"
        }
        guard let time = Cosignature.verifiedTime(of: note, by: witness) else {
            return "the cosignature does not verify under its key"
        }
        if let maxAge, time < now - maxAge {
            return "cosigned at \(Instant(seconds: time).rfc3339), older than \(maxAge) s"
        }
        return nil
    }
}
