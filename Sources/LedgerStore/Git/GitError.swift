internal import CLibgit2

/// The one error type of the git layer: libgit2's code and message, read right after the call.
public struct GitError: Error, CustomStringConvertible, Sendable {
    /// libgit2's error code (`git_error_code`), as a struct with the codes the ledger acts on.
    public struct Code: Hashable, Sendable {
        public let rawValue: Int32
        public static let notFound = Code(rawValue: GIT_ENOTFOUND.rawValue)
        public static let exists = Code(rawValue: GIT_EEXISTS.rawValue)
        /// The reference moved since it was read: "ledger moved; re-read and retry".
        public static let modified = Code(rawValue: GIT_EMODIFIED.rawValue)
        public static let locked = Code(rawValue: GIT_ELOCKED.rawValue)
        public static let iterationOver = Code(rawValue: GIT_ITEROVER.rawValue)
        public static let generic = Code(rawValue: GIT_ERROR.rawValue)
        /// The repository belongs to another user (git's "dubious ownership").
        public static let owner = Code(rawValue: GIT_EOWNER.rawValue)
    }

    public let code: Code
    public let function: String
    public let message: String

    /// The message in plain words, for people; ``function`` and ``code`` say where, for bug reports.
    public var description: String { message }

    /// Throws when `result` is negative, with the message from `git_error_last()` — read here, in
    /// the same synchronous function as the call, before anything else can overwrite it.
    @discardableResult
    package static func check(_ result: Int32, function: String = #function) throws(GitError) -> Int32 {
        guard result < 0 else { return result }
        var message = "unknown error"
        if let last = git_error_last(), let text = last.pointee.message {
            message = String(cString: text)
        }
        throw GitError(code: Code(rawValue: result), function: function, message: message)
    }

    package static func fail(_ message: String, function: String = #function) -> GitError {
        GitError(code: .generic, function: function, message: message)
    }
}
