import LedgerFormat
import LedgerStore

/// Why a batch (or an init, or a rotation) was refused: which input file, which record, which rule.
/// Nothing was written when this is thrown.
public struct AppendError: Error, CustomStringConvertible, Sendable {
    /// The input file (or `-` for standard input, or the verb's argument) the problem is in.
    public let source: String
    /// The record's ref, sequence or JSON path within the file, when known.
    public let record: String?
    /// The rule broken, e.g. `mandate.interfaceSignature`, `chain.previousHash`, `verdict.noMandate`.
    public let rule: String
    public let reason: String

    public init(source: String, record: String? = nil, rule: String, reason: String) {
        self.source = source
        self.record = record
        self.rule = rule
        self.reason = reason
    }

    init(source: String, record: String? = nil, _ error: LedgerFormatError) {
        self.init(
            source: source, record: record ?? error.path, rule: "format.\(error.code.name)",
            reason: error.reason + (error.offset.map { " (byte \($0))" } ?? ""))
    }

    public var description: String {
        "\(source)\(record.map { " [\($0)]" } ?? ""): \(rule): \(reason)"
    }
}
