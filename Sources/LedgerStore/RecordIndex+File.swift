internal import LedgerFormat

/// A record index kept as files of local state beside a checkpoint (the writer's state, the auditor's), so a
/// run that continues from the checkpoint neither lists every batch folder nor reads the whole index: a
/// ``SortedTable`` of kind `record-locations` (key: the kind's code and the content address, 33 bytes;
/// value: the batch number, 4 bytes big-endian, and the blob's object id, 20 bytes; note: the last batch),
/// and its delta (``LayeredMap``).
///
/// Local state, never input: used only for the tip it names and only by the program that wrote it; files
/// that do not open (a checksum, an offset, a header or a last batch wrong) or do not fit together are
/// ignored and the index rebuilt. An entry is decoded when it is looked up (``LayeredMap``).
extension RecordIndex {
    /// The index the files at `path` hold for `tip`; nil when they are missing, stale or damaged.
    public static func load(from path: String, tip: ObjectID) -> RecordIndex? {
        guard let (batches, note) = LayeredMap<Codec>.load(from: path, tip: tip), note <= UInt64(LedgerLayout.maxBatch)
        else { return nil }
        return RecordIndex(batches: batches, lastBatch: Int64(note))
    }

    /// Saves the index at `tip` (a delta while the changes since the full table are few).
    public func save(to path: String, tip: ObjectID, durable: Bool) throws(DurableFile.WriteError) {
        try batches.save(to: path, tip: tip, note: UInt64(lastBatch), durable: durable)
    }
}
