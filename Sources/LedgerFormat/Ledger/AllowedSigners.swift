/// `keys/allowed_signers` in git's allowed-signers format (ssh-keygen(1) "ALLOWED SIGNERS"):
/// `principals [options] ssh-ed25519 <base64> [comment]`, one key per line (docs/FORMAT.md states the
/// grammar read here).
///
/// The ledger writes one form, `onym-ledger namespaces="git" ssh-ed25519 AAAA…` (``text``). It reads
/// only what it can decide without a clock: `valid-after`/`valid-before` and `cert-authority` are refused,
/// since key validity is decided by ledger position, never by a date (docs/FORMAT.md, "Allowed signers").
public struct AllowedSigners: Sendable, Equatable {
    public static let principal = "onym-ledger"

    public struct Entry: Sendable, Equatable {
        public let principals: String
        public let key: Ed25519.PublicKey
        public let comment: String
    }

    public private(set) var entries: [Entry]

    public init(keys: [Ed25519.PublicKey]) {
        entries = keys.map { Entry(principals: Self.principal, key: $0, comment: "") }
    }

    public var keys: [Ed25519.PublicKey] { entries.map(\.key) }

    public func contains(_ key: Ed25519.PublicKey) -> Bool { entries.contains { $0.key == key } }

    public mutating func add(_ key: Ed25519.PublicKey) {
        guard !contains(key) else { return }
        entries.append(Entry(principals: Self.principal, key: key, comment: ""))
    }

    public mutating func remove(_ key: Ed25519.PublicKey) {
        entries.removeAll { $0.key == key }
    }

    /// Reads the file in the grammar docs/FORMAT.md "Allowed signers" states (a subset of what ssh-keygen(1)
    /// "ALLOWED SIGNERS" reads, so stock git trusts every key the verifier trusts): LF-separated lines,
    /// the last LF optional; blank lines and lines whose first non-blank character is `#` are ignored; every
    /// other line is `principals [namespaces="LIST"] ssh-ed25519 BASE64 [comment]`, fields separated by
    /// spaces or tabs.
    public init(text: String) throws(LedgerFormatError) {
        var entries: [Entry] = []
        // Lines and fields are told apart by their bytes, as ssh-keygen reads them, never by Swift's characters:
        // a character joins a combining mark to the space or `#` before it, and a CR to the LF after it.
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let path = "\(LedgerLayout.allowedSignersPath):\(index + 1)"
            if let entry = try Self.entry(line, path: path) { entries.append(entry) }
        }
        self.entries = entries
    }

    typealias Scalars = Substring.UnicodeScalarView

    /// One line: nil for a blank or `#` comment line, else its entry; refused when off the grammar.
    static func entry(_ line: Scalars, path: String) throws(LedgerFormatError) -> Entry? {
        func refuse(_ reason: String) -> LedgerFormatError { LedgerFormatError(.invalidSSHKey, reason, path: path) }
        guard !line.contains("\r") else { throw refuse("a carriage return: lines end in LF alone") }
        guard !line.contains("\0") else { throw refuse("a NUL byte, which ends a line for ssh-keygen") }
        var fields = FieldScanner(line)
        guard let first = fields.next(), first.first != "#" else { return nil }
        var principals = first
        if first.first == "\"" {
            guard first.count >= 3, first.last == "\"", !first.dropFirst().dropLast().contains("\"") else {
                throw refuse("a quoted principal is one \"…\" without inner quotes")
            }
            principals = first.dropFirst().dropLast()
        } else if first.contains("\"") {
            throw refuse("a principal holds no quote unless the whole field is quoted")
        }
        guard var field = fields.next() else {
            throw refuse("expected 'principals [namespaces=\"…\"] ssh-ed25519 KEY [comment]'")
        }
        let keyType = OpenSSHKey.keyType.unicodeScalars
        if !field.elementsEqual(keyType) {
            try Self.checkOptions(field, refuse: refuse)
            guard let next = fields.next() else { throw refuse("no key after the options") }
            field = next
        }
        guard field.elementsEqual(keyType), let base64 = fields.next() else {
            throw refuse("only ssh-ed25519 keys are accepted")
        }
        let key: Ed25519.PublicKey
        do throws(LedgerFormatError) {
            key = try OpenSSHKey.parsePublicKey("\(OpenSSHKey.keyType) \(Substring(base64))")
        } catch {
            throw refuse(error.reason)
        }
        return Entry(principals: String(Substring(principals)), key: key, comment: String(Substring(fields.rest)))
    }

    /// The one option accepted: `namespaces="LIST"`, LIST comma-separated names (letters, digits and
    /// `. _ - @ + / :`, none empty) that include `git`. Wildcards and negations, `cert-authority` and the
    /// dated `valid-after`/`valid-before` are refused: a key here signs commits by position, never by date.
    static func checkOptions(_ field: Scalars, refuse: (String) -> LedgerFormatError) throws(LedgerFormatError) {
        let prefix = "namespaces=\"".unicodeScalars
        guard field.starts(with: prefix), field.last == "\"", field.count > prefix.count else {
            throw refuse("unsupported allowed-signers option '\(Substring(field))': only namespaces=\"…\", quoted")
        }
        let list = field.dropFirst(prefix.count).dropLast()
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-@+/:".unicodeScalars)
        let names = list.split(separator: ",", omittingEmptySubsequences: false)
        guard names.allSatisfy({ !$0.isEmpty && $0.allSatisfy(allowed.contains) }) else {
            throw refuse("namespaces=\"\(Substring(list))\" is not a comma-separated list of plain names")
        }
        guard names.contains(where: { $0.elementsEqual("git".unicodeScalars) }) else {
            throw refuse("the key's namespaces exclude git")
        }
    }

    /// Splits a line into fields separated by runs of spaces and tabs.
    struct FieldScanner {
        var rest: Scalars

        init(_ line: Scalars) { rest = line.drop { $0 == " " || $0 == "\t" } }

        /// The next field, nil at the end of the line.
        mutating func next() -> Scalars? {
            guard !rest.isEmpty else { return nil }
            let field = rest.prefix { $0 != " " && $0 != "\t" }
            rest = rest.dropFirst(field.count).drop { $0 == " " || $0 == "\t" }
            return field
        }
    }

    /// The one form a writer writes, whatever form it read: one
    /// `onym-ledger namespaces="git" ssh-ed25519 <base64>` line per key, each key once, every line ended by
    /// LF, no comments (docs/FORMAT.md "Allowed signers"; the verifier reads the whole grammar).
    public var text: String {
        var seen: [Ed25519.PublicKey] = []
        for key in keys where !seen.contains(key) { seen.append(key) }
        return seen.map { "\(Self.principal) namespaces=\"git\" \(OpenSSHKey.publicKeyLine($0))\n" }.joined()
    }
}
