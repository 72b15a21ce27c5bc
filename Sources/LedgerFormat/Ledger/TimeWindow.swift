/// Time is part of the proof (docs/FORMAT.md, "Time"; docs/DECISIONS.md): one rule that the writer
/// applies to every batch and the verifier's `TimeOrderPolicy` enforces on every commit.
///
/// * A commit's time never precedes its parent's.
/// * Every time a record states lies within its commit's window. A time that dates an event the vendor
///   reports — a write, a receipt, a status attempt and its answer, a compromise report's arrival, a
///   revocation determination — lies at or after the parent commit's time and at or before the
///   commit's own time: the vendor cannot record an event in a batch published before it happened,
///   nor backdate one into a history already published. A time another party states with its own
///   clock (a mandate's acceptance, a reported compromise time, a revocation's effective time) is only
///   bounded above: no later than the commit that publishes it, plus the reference's 300 s clock skew
///   (onym-wire §4.5).
///
/// What an auditor may then conclude: every event in the ledger happened no later than the commit that
/// publishes it, and every event the vendor reports happened after everything published before it — so
/// no write can be slipped in before a verdict it contradicts, and no attempt dated before the ledger
/// existed can justify a revocation.
public enum TimeWindow {
    /// The name findings and refusals of this rule carry.
    public static let ruleName = "TimeOrderPolicy"

    /// One timed field of a record.
    public struct Field: Sendable {
        public enum Bound: Sendable {
            /// An event the vendor reports: within [parent time, commit time].
            case vendorEvent
            /// A time another party states: not after the commit time plus the reference's clock skew.
            case statedElsewhere
        }

        public let name: String
        public let time: Instant
        public let bound: Bound

        public init(_ name: String, _ time: Instant, _ bound: Bound) {
            self.name = name
            self.time = time
            self.bound = bound
        }
    }

    /// A commit's window: its parent's time (nil for the first commit) and its own, in whole seconds.
    public struct Window: Sendable {
        public let parentTime: Int64?
        public let commitTime: Int64

        public init(parentTime: Int64?, commitTime: Int64) {
            self.parentTime = parentTime
            self.commitTime = commitTime
        }
    }

    /// Why a commit's time breaks the rule, or nil.
    public static func commitViolation(_ window: Window) -> String? {
        guard let parent = window.parentTime, window.commitTime < parent else { return nil }
        return "the commit is dated \(Instant(seconds: window.commitTime)), before its parent "
            + "(\(Instant(seconds: parent))): commit times never decrease"
    }

    /// Why a record's timed fields break the rule (one reason per field), or nothing.
    public static func violations(_ fields: [Field], in window: Window) -> [String] {
        fields.compactMap { field in
            let skew = field.bound == .statedElsewhere ? VerdictValidator.maxFutureSkewSeconds : 0
            // Commit times are whole seconds (git): compare seconds, so 12:00:00.5 fits a 12:00:00 commit.
            if field.time.seconds > window.commitTime + skew {
                return "\(field.name) \(field.time) is after its commit's time \(Instant(seconds: window.commitTime))"
                    + (skew > 0 ? " (+\(skew) s clock skew)" : "")
            }
            if field.bound == .vendorEvent, let parent = window.parentTime, field.time.seconds < parent {
                return "\(field.name) \(field.time) is before the previous commit's time \(Instant(seconds: parent)): "
                    + "an event is recorded in the first batch published after it"
            }
            return nil
        }
    }
}

/// A record that states times the window rule constrains: every stored kind (``StoredRecord`` refines it, a
/// kind without such times stating none) and the write-log entry.
public protocol TimedRecord {
    var timedFields: [TimeWindow.Field] { get }
}

extension WriteLogEntry: TimedRecord {
    public var timedFields: [TimeWindow.Field] { [.init("recordedAt", recordedAt, .vendorEvent)] }
}
