public import Foundation
public import LedgerFormat
import LedgerStore
import LedgerVerifier

/// The witness side of C2SP tlog-witness `add-checkpoint`, without the HTTP around it: checks a request
/// against the log keys the witness trusts and its memory of each log, and cosigns (cosignature/v1).
///
/// The checks, in the order the spec gives them (docs/WITNESS.md): a malformed body is 400; an unknown
/// origin 404; no trusted signature that verifies (or a trusted key's line that fails) 403; a log over its
/// request budget 429; an old size above the checkpoint's 400; a size-0 checkpoint whose root is not the
/// empty tree's 422; an old size other than the latest cosigned 409; a consistency proof that does not
/// verify (or, at equal sizes, a different root) 422. Then the memory is written durably and only then is
/// the cosignature line returned. Requests for one log run one at a time (the spec: "checking the old
/// size against the latest checkpoint and persisting the new checkpoint must be performed atomically").
public final class WitnessService: Sendable {
    /// The log keys trusted for each origin (C2SP signed-note verifier keys, type 0x01).
    public let logs: [WireString: [NoteKey]]
    public let key: NoteKey
    private let signer: any CommitSigner
    private let stateRoot: String
    private let perLog: [WireString: LogSlot]
    /// The wall clock, POSIX seconds (the cosignature's timestamp).
    private let clock: @Sendable () -> Int64

    /// One log's lock and request budget.
    private final class LogSlot: @unchecked Sendable {
        let lock = NSLock()
        var bucket: TokenBucket?
    }

    /// The rate limit: `requests` per `period` seconds for each log, as a token bucket of that many.
    public struct RateLimit: Sendable {
        public let requests: Int
        public let period: Double
        public init(requests: Int, period: Double) {
            self.requests = requests
            self.period = period
        }
    }

    /// - Parameters:
    ///   - logKeys: the trusted log verifier keys with the origin each signs (its name unless given).
    ///   - rateLimit: nil for none.
    public init(
        name: String, signer: any CommitSigner, logKeys: [(origin: String, key: NoteKey)], stateRoot: String,
        rateLimit: RateLimit?, clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) throws(WitnessRefusal) {
        guard let key = NoteKey(name: name, type: NoteKey.cosignatureV1, publicKey: signer.publicKey) else {
            throw .malformed("\(name) is not a witness name (no spaces or '+')")
        }
        self.key = key
        self.signer = signer
        self.stateRoot = stateRoot
        self.clock = clock
        // Origins are told apart by their bytes, as Go's witnesses tell them (docs/FORMAT.md, "Strings compare
        // by bytes"): a checkpoint of `example.org/\u{212A}` is not one of a log named `example.org/K`.
        var logs: [WireString: [NoteKey]] = [:]
        var slots: [WireString: LogSlot] = [:]
        let start = ProcessInfo.processInfo.systemUptime
        for (name, logKey) in logKeys {
            let origin = WireString(name)
            logs[origin, default: []].append(logKey)
            if slots[origin] == nil {
                let slot = LogSlot()
                slot.bucket = rateLimit.map { TokenBucket(capacity: $0.requests, period: $0.period, now: start) }
                slots[origin] = slot
            }
        }
        self.logs = logs
        perLog = slots
    }

    /// The answer to one `add-checkpoint` body: the cosignature line (200), or the refusal.
    public func addCheckpoint(_ body: [UInt8]) -> Result<SignedNote.Signature, WitnessRefusal> {
        do {
            return .success(try add(body))
        } catch {
            return .failure(error)
        }
    }

    private func add(_ body: [UInt8]) throws(WitnessRefusal) -> SignedNote.Signature {
        let request = try AddCheckpointRequest(parsing: body)
        let checkpoint = request.checkpoint
        guard let trusted = logs[WireString(checkpoint.origin)], let slot = perLog[WireString(checkpoint.origin)] else {
            throw .unknownLog(checkpoint.origin)
        }
        try Self.checkLogSignature(request.note, trusted: trusted)
        slot.lock.lock()
        defer { slot.lock.unlock() }
        // Only requests the log signed spend its budget: anyone can send junk naming an origin, and that
        // must not lock the log out (docs/DECISIONS.md, "Witness rate limit").
        if let wait = slot.bucket?.take(now: ProcessInfo.processInfo.systemUptime) {
            throw .rateLimited(retryAfter: wait)
        }
        guard request.oldSize <= checkpoint.size else {
            throw .malformed("old size \(request.oldSize) is above the checkpoint's size \(checkpoint.size)")
        }
        if checkpoint.size == 0 && checkpoint.root != Merkle.emptyRoot {
            throw .badProof("a checkpoint of size 0 has the empty tree's root (SHA-256 of nothing)")
        }
        let path = WitnessMemory.path(stateRoot: stateRoot, origin: checkpoint.origin, key: key)
        let memory: WitnessMemory?
        do {
            memory = try WitnessMemory.load(path)
        } catch {
            throw .internalError(error.description)
        }
        let latest = memory?.size ?? 0
        guard request.oldSize == latest else { throw .conflict(latest: latest) }
        try Self.checkConsistency(request, from: memory)
        // Never dated before what this key cosigned last for the log (a replaced cosignature stored in a
        // ledger does not go back in time, docs/FORMAT.md "Witnesses"), even if the clock stepped back.
        let time = max(clock(), memory?.time ?? 0)
        let line: SignedNote.Signature
        do {
            line = try Cosignature.sign(body: checkpoint.text, time: time, key: key, signer: signer)
        } catch {
            throw .internalError("signing the cosignature: \(error.description)")
        }
        do {
            try WitnessMemory(origin: checkpoint.origin, size: checkpoint.size, root: checkpoint.root, time: time)
                .save(to: path)
        } catch {
            throw .internalError("\(error)")
        }
        return line
    }

    /// tlog-witness: "The witness MUST verify the checkpoint signature against the public key(s) it trusts
    /// for the checkpoint origin, and it MUST ignore signatures from unknown keys." A trusted key's line
    /// that does not verify refuses the note, as signed-note readers do (golang.org/x/mod's `note.Open`).
    static func checkLogSignature(_ note: SignedNote, trusted: [NoteKey]) throws(WitnessRefusal) {
        var verified = false
        for logKey in trusted where !note.signatures(by: logKey).isEmpty {
            guard note.isSigned(by: logKey) else {
                throw .forbidden("the signature by the trusted log key \(logKey.name) does not verify")
            }
            verified = true
        }
        guard verified else { throw .forbidden("no signature by a trusted log key for this origin") }
    }

    /// The proof from the remembered tree head to the submitted one: empty when the old size is 0; at equal
    /// sizes empty with equal roots; else an RFC 6962 §2.1.2 consistency proof that verifies.
    static func checkConsistency(_ request: AddCheckpointRequest, from memory: WitnessMemory?) throws(WitnessRefusal) {
        let new = request.checkpoint
        guard let memory, request.oldSize > 0 else {
            guard request.proof.isEmpty else { throw .badProof("the proof is empty when the old size is 0") }
            return
        }
        guard
            Merkle.verifyConsistency(
                oldSize: memory.size, newSize: new.size, oldRoot: memory.root, newRoot: new.root,
                proof: request.proof)
        else {
            throw .badProof(
                memory.size == new.size
                    ? "the checkpoint has this witness's latest size \(new.size) with another root"
                    : "the consistency proof from size \(memory.size) to \(new.size) does not verify")
        }
    }
}
