import LedgerFormat
import LedgerStore

/// docs/FORMAT.md "Witnesses": `cosignatures/<key ID>` holds one witness's cosignature of a checkpoint this
/// ledger published — the checkpoint in force when the commit that stores it was made (its parent's), with
/// one C2SP cosignature/v1 line whose key ID names the file, dated no later than the commit (300 s skew).
/// A commit that replaces the file (the witness cosigned again) meets the same rules, and its cosignature
/// is dated no earlier than the one it replaces: a witness's later cosignature does not go back in time.
/// Whether the cosignature verifies is for whoever trusts that witness: `verify --witness` checks it; an
/// unknown witness is ignored, as C2SP clients ignore unknown signatures.
public struct CosignaturePolicy: LedgerPolicy {
    public static let name = "CosignaturePolicy"

    public func evaluate(_ step: CommitStep, state: ReplayState) -> [PolicyFailure] {
        var failures: [PolicyFailure] = []
        for file in step.files {
            guard case .cosignature(let keyID) = file.meaning else { continue }
            let note: SignedNote
            switch file.content {
            case .success(.cosignature(let parsed)): note = parsed
            case .failure(let error):
                failures.append(failure(step, path: file.path, error.reason))
                continue
            default: continue
            }
            guard let body = state.checkpointBody, note.text.hasSameBytes(as: body) else {
                failures.append(
                    failure(
                        step, path: file.path,
                        "cosigns a checkpoint this ledger did not have in force when it was stored"))
                continue
            }
            guard note.signatures.count == 1, let line = note.signatures.first, line.keyID == keyID,
                line.payload.count == 72
            else {
                failures.append(
                    failure(
                        step, path: file.path,
                        "holds one cosignature/v1 line (8-byte time, 64-byte signature) by the witness its name's key ID names"
                    ))
                continue
            }
            let time = Self.time(of: line)
            if time > step.commit.time + VerdictValidator.maxFutureSkewSeconds {
                failures.append(
                    failure(
                        step, path: file.path,
                        "cosigned at \(Instant(seconds: time).rfc3339), after the commit that stores it"))
            }
            if let replaced = file.replacedBytes,
                let earlier = try? SignedNote(parsing: String(decoding: replaced, as: UTF8.self)),
                let earlierLine = earlier.signatures.first, time < Self.time(of: earlierLine)
            {
                failures.append(
                    failure(
                        step, path: file.path,
                        "cosigned at \(Instant(seconds: time).rfc3339), before the cosignature it replaces "
                            + "(\(Instant(seconds: Self.time(of: earlierLine)).rfc3339)): "
                            + "a witness's later cosignature does not go back in time"))
            }
        }
        return failures
    }

    /// A cosignature/v1 line's time: the payload's first 8 bytes, big-endian.
    static func time(of line: SignedNote.Signature) -> Int64 {
        line.payload.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }
}
