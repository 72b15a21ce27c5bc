/// A token bucket: `capacity` requests at once, refilled at `capacity` per `period` seconds (a steady
/// `capacity / period` per second). One per log (docs/DECISIONS.md, "Witness rate limit"). Not
/// thread-safe by itself: the service takes it under the log's lock.
struct TokenBucket: Sendable {
    let capacity: Double
    let perSecond: Double
    private var tokens: Double
    private var last: Double

    init(capacity: Int, period: Double, now: Double) {
        self.capacity = Double(capacity)
        perSecond = Double(capacity) / period
        tokens = Double(capacity)
        last = now
    }

    /// Takes one token at `now` (monotonic seconds); nil when one was free, else the whole seconds until one is.
    mutating func take(now: Double) -> Int? {
        tokens = min(capacity, tokens + max(0, now - last) * perSecond)
        last = max(last, now)
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return max(1, Int(((1 - tokens) / perSecond).rounded(.up)))
    }
}
