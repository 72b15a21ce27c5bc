import Synchronization

extension Ed25519 {
    /// Verifications already made, each by the exact public key, signature and message it was made over:
    /// how the verifier checks a commit's record signatures on the thread that reads commits ahead
    /// (docs/DECISIONS.md, "Record signatures are checked ahead, on the reading thread") and the judging
    /// thread then finds each result instead of verifying again.
    ///
    /// While a record is ``current`` (`$current.withValue(_:operation:)`), every
    /// ``PublicKey/isValidSignature(_:for:)`` on the thread first looks for the same key, signature and
    /// message in it, and records what it computes. Verification is a function of those three alone, so an
    /// answer found here is the answer verifying again would give, whoever asked first and under whatever
    /// keys they guessed: a guess that was wrong is only a verification not found.
    public final class Verifications: Sendable {
        /// The record that ``PublicKey/isValidSignature(_:for:)`` consults and adds to on this thread; nil: none.
        @TaskLocal public static var current: Verifications?

        struct Made {
            let key: [UInt8]
            let signature: [UInt8]
            let message: [UInt8]
            let valid: Bool
        }

        private let state = Mutex<(made: [Made], answered: Int)>(([], 0))
        /// Most verifications kept (a record makes one to three; one checked under every key a hostile
        /// descriptor lists for an authority makes thousands, and those past this many are made, not kept).
        static let most = 16

        public init() {}

        /// How many verifications are recorded.
        var count: Int { state.withLock { $0.made.count } }
        /// How many times a recorded verification answered instead of verifying again.
        var answered: Int { state.withLock { $0.answered } }

        /// The recorded answer for exactly this key, signature and message; nil when none is recorded.
        func answer(key: [UInt8], signature: [UInt8], message: [UInt8]) -> Bool? {
            state.withLock { state in
                let found = state.made.first { $0.signature == signature && $0.key == key && $0.message == message }
                if found != nil { state.answered += 1 }
                return found?.valid
            }
        }

        func record(key: [UInt8], signature: [UInt8], message: [UInt8], valid: Bool) {
            state.withLock { state in
                guard state.made.count < Self.most else { return }
                state.made.append(Made(key: key, signature: signature, message: message, valid: valid))
            }
        }
    }
}
