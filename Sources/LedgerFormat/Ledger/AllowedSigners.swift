/// `keys/allowed_signers` in git's allowed-signers format (ssh-keygen(1) "ALLOWED SIGNERS"):
/// `principals [options] ssh-ed25519 <base64> [comment]`, one key per line.
///
/// The ledger writes `onym-ledger namespaces="git" ssh-ed25519 AAAA… comment`. It reads only what
/// it can decide without a clock: `valid-after`/`valid-before` and `cert-authority` are refused,
/// since key validity is decided by ledger position, never by a date (DESIGN §5).
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

    public init(text: String) throws(LedgerFormatError) {
        var entries: [Entry] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(rawLine).trimmingWhitespace
            if line.isEmpty || line.hasPrefix("#") { continue }
            let path = "\(LedgerLayout.allowedSignersPath):\(index + 1)"
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard fields.count >= 3 else {
                throw LedgerFormatError(.invalidSSHKey, "expected 'principals [options] ssh-ed25519 KEY'", path: path)
            }
            var cursor = 1
            if fields[1] != OpenSSHKey.keyType {
                // The only option accepted is a namespaces list that includes "git".
                let option = fields[1]
                guard option.hasPrefix("namespaces=") else {
                    throw LedgerFormatError(
                        .invalidSSHKey, "unsupported allowed-signers option '\(option)'", path: path)
                }
                var list = Substring(option.dropFirst("namespaces=".count))
                if list.hasPrefix("\""), list.hasSuffix("\""), list.count >= 2 { list = list.dropFirst().dropLast() }
                guard list.split(separator: ",").contains("git") else {
                    throw LedgerFormatError(.invalidSSHKey, "the key's namespaces exclude git", path: path)
                }
                cursor = 2
            }
            guard fields.count > cursor + 1, fields[cursor] == OpenSSHKey.keyType else {
                throw LedgerFormatError(.invalidSSHKey, "only ssh-ed25519 keys are accepted", path: path)
            }
            let key: Ed25519.PublicKey
            do throws(LedgerFormatError) {
                key = try OpenSSHKey.parsePublicKey("\(fields[cursor]) \(fields[cursor + 1])")
            } catch {
                throw LedgerFormatError(.invalidSSHKey, error.reason, path: path)
            }
            let comment = fields.count > cursor + 2 ? fields[(cursor + 2)...].joined(separator: " ") : ""
            entries.append(Entry(principals: fields[0], key: key, comment: comment))
        }
        self.entries = entries
    }

    /// Whether `bytes` are exactly what a ledger writer writes for these entries: one
    /// `onym-ledger namespaces="git" ssh-ed25519 <base64>` line per key, no comments, no repeated key,
    /// LF line ends. A ledger's `keys/allowed_signers` must be in this form (issue 12): it is a subset of
    /// what `ssh-keygen -Y verify` accepts, so stock git and the verifier read the same signers.
    public func isWriterForm(_ bytes: [UInt8]) -> Bool {
        guard !entries.isEmpty, Set(keys).count == entries.count,
            entries.allSatisfy({ $0.principals == Self.principal && $0.comment.isEmpty })
        else { return false }
        return Array(text.utf8) == bytes
    }

    public var text: String {
        entries.map { entry in
            let line = "\(entry.principals) namespaces=\"git\" \(OpenSSHKey.publicKeyLine(entry.key))"
            return entry.comment.isEmpty ? line : line + " " + entry.comment
        }.joined(separator: "\n") + "\n"
    }
}
