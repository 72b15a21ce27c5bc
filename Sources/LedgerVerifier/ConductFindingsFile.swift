import LedgerFormat
import LedgerStore

/// The conduct findings of a verified history, kept in the auditor's state beside the checkpoint
/// (`conduct.json`; docs/VERIFY.md, "The auditor's state").
///
/// Conduct is a property of the history, not of the run that found it: an unauthorized write stays
/// unauthorized however many runs later. A run that continues from a checkpoint checks only the commits
/// after it, so it reports the checkpoint's findings from here — and a checkpoint whose findings are lost
/// is not continued from at all (the next run checks everything again), since "compliant" must never
/// mean "nothing found this time".
///
/// Bytes: canonical JSON `{"findings": [finding…], "tip": "<hex>", "version": 1}`, each finding as
/// `verify --json` prints it.
enum ConductFindingsFile {
    /// The findings the file keeps for `tip`; nil when it is missing, unreadable or names another tip.
    static func load(from path: String, tip: ObjectID) -> [PolicyFailure]? {
        guard let bytes = DurableFile.read(path),
            let object = try? CanonicalJSON.parse(bytes, limits: .localState),
            object["version"] == .integer(1), object["tip"] == .string(tip.hex),
            case .array(let list)? = object["findings"]
        else { return nil }
        var findings: [PolicyFailure] = []
        for value in list {
            guard let finding = value.objectValue.flatMap({ try? PolicyFailure(json: $0) }),
                finding.kind == .conduct
            else { return nil }
            findings.append(finding)
        }
        return findings
    }

    /// Writes the findings for `tip` durably (they are what a later run reports without re-checking).
    static func save(_ findings: [PolicyFailure], to path: String, tip: ObjectID) throws(DurableFile.WriteError) {
        let object = JSONObject([
            ("findings", .array(findings.map { .object($0.json) })), ("tip", .string(tip.hex)),
            ("version", .integer(1)),
        ])
        try DurableFile.write(CanonicalJSON.encode(object), to: path, mode: 0o600)
    }
}
