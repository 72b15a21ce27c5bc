public import LedgerFormat
import LedgerStore
public import LedgerVerifier

/// Why a batch (or an init, or a rotation) was refused: which input file, which record, which rule.
/// Nothing was written when this is thrown.
public struct AppendError: Error, CustomStringConvertible, Sendable {
    /// The input file (or `-` for standard input, or the verb's argument) the problem is in.
    public let source: String
    /// The record's ref, sequence or JSON path within the file, when known.
    public let record: String?
    /// The rule broken: the verifier policy that refused the batch (`MandateSignaturePolicy`, `ChainLinkPolicy`…),
    /// or a rule of planning itself (`append.idempotencyKeyReused`, `format.*` for input that does not parse).
    public let rule: String
    public let reason: String
    /// When the verifier's policies refused the batch: every finding (the first is ``rule``/``reason``).
    public private(set) var findings: [PolicyFailure] = []
    /// The input file of each finding, in order.
    public private(set) var findingSources: [String] = []

    public init(source: String, record: String? = nil, rule: String, reason: String) {
        self.source = source
        self.record = record
        self.rule = rule
        self.reason = reason
    }

    /// The refusal of a batch whose commit the policies judged: each finding is named by the policy that
    /// made it (the name `verify` gives) and placed in the input file its path came from.
    init(refusing findings: [PolicyFailure], sources: [String: String], otherwise fallback: String) {
        let placed = findings.map { finding in finding.path.flatMap { sources[$0] } ?? fallback }
        let first = findings[0]
        self.init(source: placed[0], record: first.record ?? first.path, rule: first.policy, reason: first.reason)
        self.findings = findings
        self.findingSources = placed
    }

    init(source: String, record: String? = nil, _ error: LedgerFormatError) {
        // The decoders are the record schema rule: the verifier reports the same failure under this name.
        self.init(
            source: source, record: record ?? error.path, rule: RecordSchemaPolicy.name,
            reason: "\(error.code): \(error.reason)" + (error.offset.map { " (byte \($0))" } ?? ""))
    }

    public var description: String {
        var text = "\(source)\(record.map { " [\($0)]" } ?? ""): \(rule): \(reason)"
        for (finding, source) in zip(findings, findingSources).dropFirst().prefix(Self.moreShown) {
            text += "\n  and \(source)\((finding.record ?? finding.path).map { " [\($0)]" } ?? ""): "
            text += "\(finding.policy): \(finding.reason)"
        }
        if findings.count > Self.moreShown + 1 {
            text += "\n  and \(findings.count - Self.moreShown - 1) more findings"
        }
        return text
    }

    /// How many findings after the first a refusal lists.
    static let moreShown = 20
}
