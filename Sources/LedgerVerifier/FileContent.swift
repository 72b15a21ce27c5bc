public import LedgerFormat

/// The decoded content of a ledger file.
public enum FileContent: Sendable {
    case descriptor(LedgerDescriptor)
    case allowedSigners(AllowedSigners)
    case manifestSignature([UInt8])
    /// The commit's checkpoint: a C2SP signed note (`LedgerLog`).
    case checkpoint(SignedNote)
    /// A witness's cosigned checkpoint (`cosignatures/<key ID>`).
    case cosignature(SignedNote)
    /// A record stored by content address (`StoredRecord`).
    case record(any StoredRecord)
    case entry(WriteLogEntry)

    /// The content address this content has, to compare with the file's name (nil: not addressed).
    public var address: ContentAddress? {
        if case .record(let record) = self { return record.address }
        return nil
    }
}
