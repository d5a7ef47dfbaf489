/// A token bucket shared by every session (and any other caller) of one broker: requests refill at
/// `requestsPerMinute`, up to `burst` may go out back to back, and never more than `requestsPerMinute`
/// are granted in any 60-second window. The window check matters because a plain bucket would allow
/// `requestsPerMinute + burst - 1` in the first minute after a quiet spell, and providers such as Tradier
/// count fixed one-minute windows (broker-apis.md §1.4).
///
/// Callers are served first come, first served: `acquire` reserves its grant time at once and then
/// sleeps until it, so a later caller can never overtake a waiting one.
public actor RequestRateLimiter {
    public let requestsPerMinute: Int
    public let burst: Int
    private var schedule: Schedule
    private let clock: ElapsedClock

    /// `requestsPerMinute` is at least 1; `burst` is kept within 1...requestsPerMinute.
    public init(requestsPerMinute: Int, burst: Int, clock: any Clock<Duration> = ContinuousClock()) {
        let schedule = Schedule(requestsPerMinute: requestsPerMinute, burst: burst)
        self.requestsPerMinute = schedule.requestsPerMinute
        self.burst = schedule.burst
        self.schedule = schedule
        self.clock = ElapsedClock(clock)
    }

    /// Waits until `permits` requests may go out together. A request for more than `burst` permits waits
    /// for a full bucket and leaves it in debt, so later callers wait longer. If the wait is cancelled
    /// the permits stay spent: giving them back could let later reservations exceed the limit.
    public func acquire(_ permits: Int = 1) async throws(CancellationError) {
        if Task.isCancelled { throw CancellationError() }
        let grant = schedule.reserve(permits, at: clock.now())
        do {
            try await clock.sleep(until: grant)
        } catch {
            throw CancellationError()
        }
    }

    /// The limiter's arithmetic as a value, in offsets from the limiter's creation: GCRA (a token bucket
    /// kept as the "theoretical arrival time" at which the bucket is full again) plus a log of the last
    /// `requestsPerMinute` grants for the 60-second window.
    struct Schedule: Sendable, Hashable {
        static let window = Duration.seconds(60)

        let requestsPerMinute: Int
        let burst: Int
        /// Time that refills one permit.
        let period: Duration
        /// When the bucket is full again given every reservation so far.
        private(set) var fullAt = Duration.zero
        /// Grant times of the most recent permits, oldest first, at most `requestsPerMinute` of them.
        private(set) var grants: [Duration] = []

        init(requestsPerMinute: Int, burst: Int) {
            self.requestsPerMinute = max(1, requestsPerMinute)
            self.burst = min(self.requestsPerMinute, max(1, burst))
            period = Self.window / self.requestsPerMinute
        }

        /// Reserves `permits` (at least 1) for one moment at or after `now` and returns that moment.
        mutating func reserve(_ permits: Int, at now: Duration) -> Duration {
            let permits = max(1, permits)
            // The bucket holds enough permits once `burst - permits` periods remain until it is full.
            var grant = max(now, fullAt - period * (burst - min(permits, burst)))
            // At most `requestsPerMinute` grants in any window (grant - 60 s, grant].
            let counted = min(permits, requestsPerMinute)
            let index = grants.count - (requestsPerMinute - counted) - 1
            if index >= 0 { grant = max(grant, grants[index] + Self.window) }
            if let last = grants.last { grant = max(grant, last) }

            fullAt = max(fullAt, grant) + period * permits
            grants.append(contentsOf: repeatElement(grant, count: counted))
            if grants.count > requestsPerMinute { grants.removeFirst(grants.count - requestsPerMinute) }
            return grant
        }
    }
}
