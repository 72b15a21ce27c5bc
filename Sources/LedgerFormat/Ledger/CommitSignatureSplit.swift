/// A raw commit object's `gpgsig` signature split from the bytes it signs, as git computes it (and
/// libgit2's `git_commit_extract_signature`): the signed payload is the object without the first
/// `gpgsig` header line and its continuation lines (those that begin with a space); the signature is
/// that header's value, continuation lines without their leading space, joined by newlines.
///
/// Written here over the object's exact bytes, because libgit2 1.5 computes the payload with `strlen`
/// and reads past the end of objects that are not NUL-terminated — as objects in its in-memory backend
/// are, where the writer builds a commit before the policies judge it.
public enum CommitSignatureSplit {
    public enum Result: Sendable, Equatable {
        case unsigned
        case signed(signature: String, signedData: [UInt8])
        /// A `gpgsig` header without its value's line end (a truncated object).
        case malformed
    }

    static let header = Array("gpgsig ".utf8)
    static let newline = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")

    public static func split(_ raw: [UInt8]) -> Result {
        var lineStart = 0
        while lineStart < raw.count {
            guard let lineEnd = raw[lineStart...].firstIndex(of: newline) else { return .unsigned }
            // The header ends at the first empty line; the message below it is never a signature.
            if lineEnd == lineStart { return .unsigned }
            if raw[lineStart...].starts(with: header) {
                var signature = Array(raw[(lineStart + header.count)..<lineEnd])
                var end = lineEnd
                while end + 1 < raw.count, raw[end + 1] == space {
                    guard let next = raw[(end + 2)...].firstIndex(of: newline) else { return .malformed }
                    signature.append(newline)
                    signature += raw[(end + 2)..<next]
                    end = next
                }
                let signedData = Array(raw[..<lineStart]) + raw[(end + 1)...]
                return .signed(signature: String(decoding: signature, as: UTF8.self), signedData: signedData)
            }
            lineStart = lineEnd + 1
        }
        return .unsigned
    }
}
