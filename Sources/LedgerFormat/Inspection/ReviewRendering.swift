/// How `textconv` shows a ledger file to a reviewer in `git diff` and `git log -p`: canonical JSON
/// is one line, so a record becomes a few `#` header lines — its kind, its content address, its times —,
/// its fields, one per line, in canonical key order, and then, after a blank line, what it says: its
/// kind's reading (``StoredRecord/reading``) as `label: value` lines (`ReadingText`). Stable (the same
/// bytes render the same text) and total: a file it cannot read is shown as it is. A write-log entry's bits are written as everywhere else
/// (`gate --apple-bits`, `reconcile`, the README): by ``DeviceBits``, `bit1 bit0`, so `01` is case-open.
public enum ReviewRendering {
    public static func render(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        if let note = try? SignedNote(parsing: text) {
            var lines = ["# onym-ledger: signed note (C2SP)"]
            if let head = TreeHead(text: note.text) {
                lines.append(
                    "# checkpoint of \(head.origin): \(head.size) leaves, root \(Base64.encode(head.root.bytes))")
            }
            lines += note.signatures.map { "# signed by \($0.name) (key ID \(NoteKey.hex($0.keyID)))" }
            return lines.joined(separator: "\n") + "\n" + text
        }
        if let signers = try? AllowedSigners(text: text), !signers.keys.isEmpty {
            let header =
                ["# onym-ledger: allowed commit signers"]
                + signers.keys.map { "# \(OpenSSHKey.fingerprint($0))" }
            return header.joined(separator: "\n") + "\n" + text
        }
        guard bytes.first == UInt8(ascii: "{"), let object = try? CanonicalJSON.parse(bytes) else { return text }
        var header: [String] = []
        var reading: RecordFacts?
        if let descriptor = try? LedgerDescriptor(json: object) {
            header.append("# onym-ledger: ledger descriptor \(descriptor.ledgerId)")
        } else if let entry = try? WriteLogEntry(json: object) {
            header.append(
                "# onym-ledger: write-log entry \(entry.sequence), bits \(DeviceBits(caseOpen: entry.caseOpen, banned: entry.banned))"
            )
            header.append("# entryHash \(entry.entryHash)")
        } else if let (kind, _) = try? InputKind.recognize(bytes) {
            header.append("# onym-ledger: \(kind.rawValue)")
            if let stored = kind.stored, let record = try? stored.init(storedBytes: bytes, json: object) {
                header.append("# content address \(record.address.hex)")
                reading = record.reading
            }
        } else {
            header.append("# onym-ledger: JSON (no record kind recognized)")
        }
        for member in object.members {
            if case .string(let value) = member.value, let instant = Instant.parse(value) {
                // A key may hold any character: escaped like ledger text, it cannot forge a header line.
                header.append("# \(ReadingText.escape(member.key)): \(instant.rfc3339)")
            }
        }
        let json = String(decoding: PrettyJSON.render(.object(object)), as: UTF8.self)
        let facts = reading.map { ([""] + ReadingText.lines($0)).joined(separator: "\n") + "\n" } ?? ""
        return header.joined(separator: "\n") + "\n" + json + facts
    }
}
