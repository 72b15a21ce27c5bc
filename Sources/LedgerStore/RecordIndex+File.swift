public import LedgerFormat

/// A record index kept as a file of local state beside a checkpoint (the writer's state, the auditor's),
/// so a run that continues from the checkpoint does not list every batch folder again.
///
/// Bytes: the line `onym-ledger record index 1 <tip hex> <last batch> <count>\n`, then `count` entries of
/// 37 bytes — the key's code (1), the content address (32), the batch number (4, big-endian) — in no
/// particular order. Local state, never input: it is used only for the tip it names and only by the program that
/// wrote it; a file that does not parse — a stated count the bytes do not hold, an unknown kind, a batch
/// past the stated last — is ignored and the index rebuilt.
extension RecordIndex {
    static let fileMagic = "onym-ledger record index 1"
    static let entryBytes = 37

    /// The file's bytes for the index at `tip`.
    public func fileBytes(tip: ObjectID) -> [UInt8] {
        let header = Array("\(Self.fileMagic) \(tip.hex) \(lastBatch) \(count)\n".utf8)
        var bytes = [UInt8](repeating: 0, count: header.count + count * Self.entryBytes)
        bytes.withUnsafeMutableBytes { raw in
            raw.copyBytes(from: header)
            var offset = header.count
            // In the dictionary's order: a reader builds a dictionary again, so sorting would buy nothing.
            for (key, batch) in allEntries {
                raw[offset] = key.code
                let words = key.address.bigEndianWords
                raw.storeBytes(of: words.0.bigEndian, toByteOffset: offset + 1, as: UInt64.self)
                raw.storeBytes(of: words.1.bigEndian, toByteOffset: offset + 9, as: UInt64.self)
                raw.storeBytes(of: words.2.bigEndian, toByteOffset: offset + 17, as: UInt64.self)
                raw.storeBytes(of: words.3.bigEndian, toByteOffset: offset + 25, as: UInt64.self)
                raw.storeBytes(of: batch.bigEndian, toByteOffset: offset + 33, as: UInt32.self)
                offset += Self.entryBytes
            }
        }
        return bytes
    }

    /// The index a file holds for `tip`; nil when the file is for another tip or does not parse.
    public init?(fileBytes bytes: [UInt8], tip: ObjectID) {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return nil }
        let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
        guard header.count == 7, header[0...4].joined(separator: " ") == "\(Self.fileMagic) \(tip.hex)",
            let last = Int64(header[5]), last >= 0, last <= LedgerLayout.maxBatch, let count = Int(header[6]),
            count >= 0, (bytes.count - newline - 1).quotientAndRemainder(dividingBy: Self.entryBytes) == (count, 0)
        else { return nil }
        self.init(minimumCapacity: count)
        let valid = bytes.withUnsafeBytes { raw -> Bool in
            var offset = newline + 1
            for _ in 0..<count {
                let code = raw[offset]
                guard Int(code) < StoredRecords.kinds.count || code == Self.manifestSignatureCode else { return false }
                func word(_ index: Int) -> UInt64 {
                    UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: offset + 1 + 8 * index, as: UInt64.self))
                }
                let address = ContentAddress(words: (word(0), word(1), word(2), word(3)))
                let batch = Int64(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: offset + 33, as: UInt32.self)))
                guard batch >= 1, batch <= last else { return false }
                insert(Key(code: code, address: address), batch: batch)
                offset += Self.entryBytes
            }
            return true
        }
        guard valid else { return nil }
        noteBatch(last)
    }
}
