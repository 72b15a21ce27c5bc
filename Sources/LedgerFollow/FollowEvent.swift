public import LedgerFormat
import LedgerWriter

/// One thing the store holds and the ledger does not yet: a mandate (with its manifest when attached), a
/// verdict (with its manifest and its receipt), or a write-log row — at the time it happened in the backend.
public struct FollowEvent: Sendable {
    public enum Kind: Int, Sendable, Comparable {
        case mandate = 0
        case verdict = 1
        case write = 2

        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public let kind: Kind
    /// The event time: `mandates.created_at`, `verdicts.received_at`, `write_log.recorded_at`.
    public let time: Instant
    /// The batch items it becomes (a write row: none, see ``entry``).
    let items: [BatchItem]
    /// A write row as the ledger's entry, with the store's own hashes.
    let entry: WriteLogEntry?

    /// Whether the ledger bounds its time below by the batch's window (docs/FORMAT.md "Time": a receipt's
    /// `receivedAt` and an entry's `recordedAt` lie between the parent commit's time and the commit's). A
    /// mandate's time is bounded only above (`acceptedAt` ≤ commit time + 300 s).
    var isWindowed: Bool { kind != .mandate }
}

/// The pending events in publication order, cut into batches whose time windows hold.
enum FollowBatches {
    /// Orders `records` (mandates and verdicts, by time, mandates first at equal times) and `writes` (in
    /// sequence order, which the chain fixes) into one list: a record goes before a write of the same second,
    /// so a write finds the verdict that authorizes it published in its batch or an earlier one.
    static func ordered(records: [FollowEvent], writes: [FollowEvent]) -> [FollowEvent] {
        let records = records.enumerated().sorted {
            ($0.element.time, $0.element.kind, $0.offset) < ($1.element.time, $1.element.kind, $1.offset)
        }.map(\.element)
        var merged: [FollowEvent] = []
        merged.reserveCapacity(records.count + writes.count)
        var r = 0
        var w = 0
        while r < records.count || w < writes.count {
            if w == writes.count || (r < records.count && records[r].time <= writes[w].time) {
                merged.append(records[r])
                r += 1
            } else {
                merged.append(writes[w])
                w += 1
            }
        }
        return merged
    }

    /// Cuts `events` into batches of at most `limit` events, each dated by its latest event (never before
    /// `tipTime`), cutting only where every later windowed event is no earlier than every event before the
    /// cut — so each batch's receipts and entries lie within its window (docs/FORMAT.md "Time"). A batch
    /// may run past `limit` until such a cut exists (write rows whose `recorded_at` runs backwards).
    /// - Returns: the batches with their times, or the first windowed event dated before `tipTime`.
    static func cut(_ events: [FollowEvent], limit: Int, tipTime: Instant) -> Result<
        [(events: ArraySlice<FollowEvent>, time: Instant)], Backdated
    > {
        guard !events.isEmpty else { return .success([]) }
        // The earliest windowed time at or after each position.
        var suffixMin = [Instant](repeating: Instant(seconds: .max), count: events.count + 1)
        for index in stride(from: events.count - 1, through: 0, by: -1) {
            let time = events[index].isWindowed ? Self.second(events[index].time) : Instant(seconds: .max)
            suffixMin[index] = min(suffixMin[index + 1], time)
        }
        if let early = events.first(where: { $0.isWindowed && Self.second($0.time) < tipTime }) {
            return .failure(Backdated(event: early))
        }
        var batches: [(events: ArraySlice<FollowEvent>, time: Instant)] = []
        var start = 0
        var latest = tipTime
        for index in events.indices {
            latest = max(latest, Self.second(events[index].time))
            let full = index + 1 - start >= limit
            let last = index == events.count - 1
            if last || (full && latest <= suffixMin[index + 1]) {
                batches.append((events[start...index], latest))
                start = index + 1
            }
        }
        return .success(batches)
    }

    /// A windowed event dated before the ledger's tip: it cannot be published without backdating it.
    struct Backdated: Error {
        let event: FollowEvent
    }

    /// Commit times are git's whole seconds; record times compare by their whole second (docs/FORMAT.md).
    static func second(_ time: Instant) -> Instant { Instant(seconds: time.seconds) }
}
