import LedgerFormat
public import LedgerStore
public import LedgerVerifier

/// Why a batch (or an init, or a rotation) was refused: which input file, which record, which rule.
/// Nothing was written when this is thrown.
public struct AppendError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is, for the exit code: a refusal (a policy or a planning rule) or a
    /// ledger git cannot read or write are the input's (65); anything else is a bug (70).
    public enum Kind: Sendable {
        case refused
        /// libgit2 failed; ``gitError`` keeps its code and message.
        case git
        case internalError
    }

    /// The input file (or `-` for standard input, or the verb's argument) the problem is in.
    public let source: String
    /// The record's ref, sequence or JSON path within the file, when known.
    public let record: String?
    /// The rule broken: the verifier policy that refused the batch (`MandateSignaturePolicy`, `ChainLinkPolicy`…),
    /// or a rule of planning itself (`append.idempotencyKeyReused`, `format.*` for input that does not parse).
    public let rule: String
    public let reason: String
    public private(set) var kind = Kind.refused
    /// The libgit2 error behind a ``Kind/git`` failure, with its code.
    public private(set) var gitError: GitError?
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

    /// A libgit2 failure reading or writing the ledger at `source`, its code kept.
    public static func git(_ error: GitError, source: String, record: String? = nil) -> AppendError {
        var failure = AppendError(source: source, record: record, rule: "git", reason: error.description)
        failure.kind = .git
        failure.gitError = error
        return failure
    }

    /// Any failure the writer has no rule for: a bug, never the input's fault. Nothing was written.
    public static func internalError(_ error: any Error, source: String) -> AppendError {
        var failure = AppendError(source: source, rule: "internal", reason: "\(error)")
        failure.kind = .internalError
        return failure
    }

    /// Sorts an error a write step threw: an ``AppendError`` as it is, libgit2's with its code, a
    /// decoding failure of a ledger file as a refusal under its rule, anything else internal.
    static func from(_ error: any Error, source: String) -> AppendError {
        switch error {
        case let error as AppendError: error
        case let error as GitError: .git(error, source: source)
        case let error as LedgerFormatError: AppendError(source: source, error)
        case let error as Verifier.InputError where error.kind == .unreadable:
            AppendError(source: source, rule: "ledger.unreadable", reason: error.description)
        default: .internalError(error, source: source)
        }
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
