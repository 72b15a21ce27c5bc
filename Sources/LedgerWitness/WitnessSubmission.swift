public import Foundation
public import LedgerFormat
public import LedgerVerifier

/// The log's side of C2SP tlog-witness: `witness submit` sends the ledger's newest checkpoint to a witness
/// with a consistency proof from the size that witness cosigned last, and keeps the cosignature it returns.
public enum WitnessSubmission {
    /// A witness to submit to: `NAME=URL=VKEY` on the command line.
    public struct Endpoint: Sendable {
        /// The witness's cosignature/v1 verifier key (its name is the witness's name).
        public let key: NoteKey
        /// The submission prefix: `add-checkpoint` is POSTed below it.
        public let url: URL

        public init(key: NoteKey, url: URL) {
            self.key = key
            self.url = url
        }
    }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public struct Cosigned: Sendable {
        /// The tip's checkpoint body with the witness's one cosignature line (what `append` stores).
        public let note: SignedNote
        /// The old size the accepted request named.
        public let oldSize: Int
        /// Whether the witness answered 409 first and the request was sent again from its size.
        public let retried: Bool
    }

    /// Submits `log`'s tip checkpoint to `witness`. `stored` is the witness's cosignature the ledger holds
    /// (`cosignatures/<key ID>` at the tip), whose size is the old size; without one (or one that does not
    /// verify, or of another origin) the old size is 0. A 409 is answered once, from the size it names.
    public static func submit(
        _ log: LedgerLogView, stored: SignedNote?, to witness: Endpoint, timeout: Double
    ) -> Result<Cosigned, Failure> {
        guard let tip = log.tip, let tipNote = try? SignedNote(parsing: tip.note),
            let head = TreeHead(text: tipNote.text)
        else { return .failure(Failure("the ledger has no checkpoint to submit")) }
        var oldSize = lastCosignedSize(stored, witness: witness.key, origin: head.origin, limit: head.size)
        var retried = false
        while true {
            guard let body = log.consistencyProof(oldSize: oldSize) else {
                return .failure(Failure("no consistency proof from size \(oldSize) to \(head.size)"))
            }
            let answer: WitnessClient.Answer
            switch WitnessClient.post(body, to: witness.url, timeout: timeout) {
            case .success(let received): answer = received
            case .failure(let failure): return .failure(Failure("\(witness.url): \(failure.description)"))
            }
            switch answer.status {
            case 200:
                return cosignature(in: answer.body, body: tipNote.text, witness: witness.key).map {
                    Cosigned(note: $0, oldSize: oldSize, retried: retried)
                }
            case 409:
                let text = String(decoding: answer.body, as: UTF8.self)
                guard answer.contentType.hasPrefix(WitnessHTTP.sizeContentType), text.hasSuffix("\n"),
                    let latest = AddCheckpointRequest.decimal(text.dropLast()[...])
                else { return .failure(Failure("409 without a text/x.tlog.size body")) }
                guard !retried, latest != oldSize, latest <= head.size else {
                    return .failure(
                        Failure(
                            "409: the witness has cosigned size \(latest) of \(head.origin), and the log at size "
                                + "\(head.size) cannot be shown to extend it from there"
                                + (retried ? " (after one retry)" : "")))
                }
                oldSize = latest
                retried = true
            default:
                let reason =
                    String(decoding: answer.body.prefix(300), as: UTF8.self)
                    .split(separator: "\n").first.map(String.init) ?? ""
                return .failure(Failure("\(answer.status) \(reason)"))
            }
        }
    }

    /// The size of the checkpoint `stored` cosigns when it is `witness`'s valid cosignature of a checkpoint
    /// of `origin` no larger than `limit`; 0 otherwise (the witness then answers 409 with its own size).
    static func lastCosignedSize(_ stored: SignedNote?, witness: NoteKey, origin: String, limit: Int) -> Int {
        guard let stored, let head = TreeHead(text: stored.text), head.origin.hasSameBytes(as: origin),
            head.size <= limit,
            Cosignature.verifiedTime(of: stored, by: witness) != nil
        else { return 0 }
        return head.size
    }

    /// tlog-witness: "the client MAY concatenate it to the checkpoint, and use a note verification function
    /// configured with the witness keys it trusts" — the answer's lines after the checkpoint body, of which
    /// the witness's one valid line is kept and every other ignored.
    static func cosignature(in answer: [UInt8], body: String, witness: NoteKey) -> Result<SignedNote, Failure> {
        guard let text = String(validating: answer, as: UTF8.self), text.hasPrefix("\u{2014} "),
            let note = try? SignedNote(parsing: body + "\n" + text)
        else { return .failure(Failure("200 whose body is not note signature lines")) }
        let lines = note.signatures(by: witness)
        guard let line = lines.first, lines.count == 1,
            Cosignature.verifiedTime(of: SignedNote(text: body, signatures: [line]), by: witness) != nil
        else { return .failure(Failure("200 without one valid cosignature/v1 line by \(witness)")) }
        return .success(SignedNote(text: body, signatures: [line]))
    }
}
