import Domain

/// When a broker may be asked again after it answered 429, as a value. Times are offsets on the gate's
/// clock. The pause lasts until the time the server named (Retry-After or a rate-limit reset header,
/// already turned into seconds by the status mapping); a 429 that names no time pauses for a backoff
/// that doubles while 429s keep coming, so an unnamed limit is not hit again at the next permit.
struct RequestPause: Sendable, Hashable {
    /// The wait after a first 429 that names no time; it doubles per such 429 in a row, up to `maximumWait`.
    let initialWait: Duration
    let maximumWait: Duration
    /// No request before this offset.
    private(set) var until: Duration = .zero
    /// 429s without a named time since the last answer that was not a 429.
    private(set) var unnamedInARow = 0

    init(initialWait: Duration, maximumWait: Duration) {
        self.initialWait = max(.milliseconds(1), initialWait)
        self.maximumWait = max(self.initialWait, maximumWait)
    }

    /// How long a request made at `now` must still wait; nil when it may go.
    func remaining(at now: Duration) -> Duration? {
        now < until ? until - now : nil
    }

    /// A 429 answered at `now`. Returns when the pause ends. A pause already running longer is kept:
    /// an earlier 429 may have named a later time than this one.
    mutating func rateLimited(retryAfter seconds: Double?, at now: Duration) -> Duration {
        let wait: Duration
        if let named = Self.duration(seconds) {
            wait = named
        } else {
            unnamedInARow += 1
            wait = unnamedWait(unnamedInARow)
        }
        until = max(until, now + wait)
        return until
    }

    /// Any answer but a 429: the next unnamed 429 starts the backoff afresh.
    mutating func answered() {
        unnamedInARow = 0
    }

    /// `initialWait` doubled per 429 in a row after the first, capped; stepwise, so it cannot overflow.
    func unnamedWait(_ count: Int) -> Duration {
        var wait = initialWait
        var step = 1
        while step < count, wait < maximumWait {
            wait = min(maximumWait, wait * 2)
            step += 1
        }
        return wait
    }

    /// Seconds as a wait; nil when absent, zero or unusable. An hour caps absurd values, so a broken
    /// header cannot silence a broker for a day.
    static func duration(_ seconds: Double?) -> Duration? {
        guard let seconds, seconds.isFinite, seconds > 0 else { return nil }
        return .milliseconds(Int64((min(seconds, 3600) * 1000).rounded(.up)))
    }
}
