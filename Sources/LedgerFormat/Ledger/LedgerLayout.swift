/// Where each file lives in a ledger repository (docs/FORMAT.md is the contract; this is its code).
///
/// Format version 2 (docs/FORMAT.md, "Paths"): every commit that stores records adds **one new batch folder**,
/// `batches/<B[0..<7]>/<B>/` with the batch number `B` zero-padded to 10 digits, and names each record
/// inside it by kind and content address (`batches/0000000/0000000042/verdicts/a/<hex>.json`). Nothing an
/// earlier commit wrote is rewritten, so a commit's tree work follows its batch, not the ledger's size.
/// Finding a record by content address takes an index (`RecordIndex`) that is rebuilt from the trees and
/// never trusted. Write-log entries sit in `log/` under two levels of bounded folders named so that listing
/// order is sequence order.
public enum LedgerLayout {
    public static let descriptorPath = "ledger.json"
    public static let allowedSignersPath = "keys/allowed_signers"
    /// The signed checkpoint of the ledger's transparency log after the commit (``LedgerLog``).
    public static let checkpointPath = "checkpoint"
    /// Witnesses' cosigned checkpoints: `cosignatures/<key ID, 8 lowercase hex digits>`, one per witness.
    public static let cosignaturesFolder = "cosignatures"

    public static func cosignaturePath(keyID: UInt32) -> String {
        "\(cosignaturesFolder)/\(NoteKey.hex(keyID))"
    }
    public static let branch = "refs/heads/main"

    public static let logFolder = "log"
    /// Digits of a write-log entry's file name: sequences up to 10^16 − 1.
    public static let sequenceDigits = 16

    public static let batchesFolder = "batches"
    /// Digits of a batch folder's name: batch numbers from 1 to ``maxBatch``.
    public static let batchDigits = 10
    /// The highest batch number (the record index keeps batch numbers in 32 bits).
    public static let maxBatch = Int64(UInt32.max)

    /// `batches/<B[0..<7]>/<B>`: at most 1 000 batch folders in each middle folder.
    public static func batchFolder(_ batch: Int64) -> String {
        precondition(batch >= 1 && batch <= maxBatch)
        let padded = zeroPadded(batch, digits: batchDigits)
        return "\(batchesFolder)/\(padded.prefix(7))/\(padded)"
    }

    /// `batches/<…>/<B>/<folder>/<a>/<hex>.json`, where `a` is the first hex digit of the address: 16
    /// folders per kind in a batch, so a batch of 150 000 records of one kind stays within the tree limit.
    public static func recordPath(_ kind: any StoredRecord.Type, _ address: ContentAddress, batch: Int64) -> String {
        let hex = address.hex
        return "\(batchFolder(batch))/\(kind.folder)/\(hex.prefix(1))/\(hex).json"
    }

    /// Where `record` is stored when batch `batch` publishes it.
    public static func recordPath(of record: some StoredRecord, batch: Int64) -> String {
        recordPath(type(of: record), record.address, batch: batch)
    }

    /// The detached signature of a manifest, in the batch that publishes it: `…/manifests/a/<hex>.sig`.
    public static func manifestSignaturePath(_ hash: ContentAddress, batch: Int64) -> String {
        let path = recordPath(AuthorityManifest.self, hash, batch: batch)
        return String(path.dropLast(".json".count)) + ".sig"
    }

    /// `log/<seq 0..<10>/<seq 10..<13>/<seq>.json` with the 16-digit zero-padded sequence: at most
    /// 1 000 entries per leaf folder and per middle folder, and 10 top folders per 10 million entries.
    public static func logEntryPath(_ sequence: Int64) -> String {
        precondition(sequence >= 1 && sequence < 10_000_000_000_000_000)
        let padded = zeroPadded(sequence, digits: sequenceDigits)
        let bytes = Array(padded.utf8)
        let top = String(decoding: bytes[0..<10], as: UTF8.self)
        let middle = String(decoding: bytes[10..<13], as: UTF8.self)
        return "\(logFolder)/\(top)/\(middle)/\(padded).json"
    }

    private static func zeroPadded(_ value: Int64, digits: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// What a path in a ledger tree names, or nil for a path that is not on the whitelist.
    public enum PathMeaning: Equatable, Sendable {
        case descriptor
        case allowedSigners
        case checkpoint
        case cosignature(UInt32)
        case record(any StoredRecord.Type, ContentAddress)
        case manifestSignature(ContentAddress)
        case logEntry(Int64)

        public static func == (lhs: PathMeaning, rhs: PathMeaning) -> Bool {
            switch (lhs, rhs) {
            case (.descriptor, .descriptor), (.allowedSigners, .allowedSigners), (.checkpoint, .checkpoint): true
            case (.record(let a, let x), .record(let b, let y)): a == b && x == y
            case (.manifestSignature(let x), .manifestSignature(let y)): x == y
            case (.logEntry(let x), .logEntry(let y)): x == y
            case (.cosignature(let x), .cosignature(let y)): x == y
            default: false
            }
        }
    }

    /// Classifies a full file path. Only exact, canonical spellings match (lowercase hex, the
    /// right fan-out prefix, zero-padded numbers in the right folders).
    public static func classify(_ path: String) -> PathMeaning? {
        locate(path)?.meaning
    }

    /// A whitelisted path's meaning and, for a record or a manifest signature, the batch it is stored in.
    ///
    /// Parsed from the UTF-8 bytes without building strings (the verifier classifies every path a commit
    /// adds): only the exact canonical spellings match.
    public static func locate(_ path: String) -> (meaning: PathMeaning, batch: Int64?)? {
        if path == descriptorPath { return (.descriptor, nil) }
        if path == allowedSignersPath { return (.allowedSigners, nil) }
        if path == checkpointPath { return (.checkpoint, nil) }
        if path.hasBytePrefix(cosignaturesFolder + "/") {
            let name = Substring(path.utf8.dropFirst(cosignaturesFolder.utf8.count + 1))
            guard name.utf8.count == 8, let keyID = UInt32(name, radix: 16), cosignaturePath(keyID: keyID) == path
            else { return nil }
            return (.cosignature(keyID), nil)
        }
        var path = path
        return path.withUTF8(locate(folderPath:))
    }

    /// ``locate(_:)`` for the paths in folders of numbered parts (a log entry, a batch's record): its bytes
    /// compared in place.
    private static func locate(folderPath path: UnsafeBufferPointer<UInt8>) -> (meaning: PathMeaning, batch: Int64?)? {
        // The parts between slashes, found in place (no array of them): a log entry's path has four, a record's
        // six, and a path with more is on no row of the whitelist.
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: 6) { bounds in
            var count = 0
            var start = 0
            for index in path.indices where path[index] == 0x2F {
                guard count < 5 else { return nil }
                bounds[count] = start..<index
                count += 1
                start = index + 1
            }
            bounds[count] = start..<path.count
            return locate(parts: count + 1) { path[bounds[$0]] }
        }
    }

    /// ``locate(folderPath:)`` given the path's `count` parts, `parts(i)` the i-th.
    private static func locate(parts count: Int, _ parts: (Int) -> Slice<UnsafeBufferPointer<UInt8>>) -> (
        meaning: PathMeaning, batch: Int64?
    )? {
        if count == 4, parts(0).elementsEqual(logFolder.utf8) {
            guard let sequence = number(parts(3).dropLast(5), digits: sequenceDigits), sequence >= 1,
                parts(3).suffix(5).elementsEqual(".json".utf8),
                parts(1).elementsEqual(parts(3).prefix(10)),
                parts(2).elementsEqual(parts(3).dropFirst(10).prefix(3))
            else { return nil }
            return (.logEntry(sequence), nil)
        }
        guard count == 6, parts(0).elementsEqual(batchesFolder.utf8),
            let batch = number(parts(2), digits: batchDigits), batch >= 1, batch <= maxBatch,
            parts(1).elementsEqual(parts(2).prefix(7)),
            let kind = kindFolders.first(where: { parts(3).elementsEqual($0.folder) })?.kind
        else { return nil }
        let name = parts(5)
        let isSignature = kind == AuthorityManifest.self && name.suffix(4).elementsEqual(".sig".utf8)
        guard isSignature || name.suffix(5).elementsEqual(".json".utf8),
            let address = ContentAddress(hexBytes: name.prefix(64)),
            name.count == 64 + (isSignature ? 4 : 5),
            parts(4).count == 1, parts(4).first == name.first
        else { return nil }
        return (isSignature ? .manifestSignature(address) : .record(kind, address), batch)
    }

    /// Each kind's folder name as bytes, read once (every record path is matched against them).
    private static let kindFolders: [(kind: any StoredRecord.Type, folder: [UInt8])] = StoredRecords.kinds.map {
        ($0, Array($0.folder.utf8))
    }

    /// Exactly `digits` decimal digits, as a number.
    private static func number(_ text: some Collection<UInt8>, digits: Int) -> Int64? {
        guard text.count == digits else { return nil }
        var value: Int64 = 0
        for character in text {
            guard character >= 0x30 && character <= 0x39 else { return nil }
            value = value * 10 + Int64(character - 0x30)
        }
        return value
    }
}
