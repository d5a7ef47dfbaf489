import Domain
import Locking

/// The one door for every request that counts against one broker's API quota, whoever makes it: the
/// start-up snapshot fan-out, the poller, a credential check. The composition root builds one per broker
/// and hands it to the broker's quote service, so the README's limits hold from the first request.
///
/// - Each request takes a permit from the broker's `RequestRateLimiter` (none when `rateLimiter` is nil).
/// - A 429 pauses the whole broker until the time the server named (Retry-After in seconds or as an
///   HTTP date, or the reset header the broker documents; `HTTPStatusMapping` reads them) or, when it
///   named none, a doubling backoff (`RequestPause`). During a pause a request is refused at once with
///   `.rateLimited(retryAfter:)` carrying the seconds left, never sent: every caller learns when to come
///   back, and the poller shows it in the footer.
public final class BrokerRequestGate: Sendable {
    public let rateLimiter: RequestRateLimiter?
    private let clock: ElapsedClock
    private let pause: Locked<RequestPause>

    /// `unnamedRateLimitWait` is the first pause after a 429 that names no time; it doubles per such 429 in
    /// a row, up to `maximumWait`.
    public init(
        rateLimiter: RequestRateLimiter? = nil, clock: any Clock<Duration> = ContinuousClock(),
        unnamedRateLimitWait: Duration = .seconds(1), maximumWait: Duration = .seconds(60)
    ) {
        self.rateLimiter = rateLimiter
        self.clock = ElapsedClock(clock)
        self.pause = Locked(RequestPause(initialWait: unnamedRateLimitWait, maximumWait: maximumWait))
    }

    /// A gate whose limiter has the rate and burst of `settings`, and whose unnamed-429 backoff is the
    /// poller's.
    public convenience init(settings: PollingSettings, clock: any Clock<Duration> = ContinuousClock()) {
        let settings = settings.clamped
        self.init(
            rateLimiter: RequestRateLimiter(requestsPerMinute: settings.requestsPerMinute, burst: settings.burst, clock: clock),
            clock: clock, unnamedRateLimitWait: settings.backoffInitial, maximumWait: settings.backoffMaximum
        )
    }

    /// How long the broker is still paused; nil when a request may go.
    public var pausedFor: Duration? {
        let now = clock.now()
        return pause.withLock { $0.remaining(at: now) }
    }

    /// Runs one request through the gate: refused while the broker is paused, else after a permit. A
    /// `.rateLimited` failure of `request` pauses the broker and is rethrown with the pause's length, so
    /// the caller waits exactly as long as everyone else. Throws `.cancelled` if cancelled while waiting
    /// for a permit (the permit stays spent; see `RequestRateLimiter.acquire`).
    public func perform<T>(_ request: () async throws(BrokerError) -> T) async throws(BrokerError) -> T {
        try refuseWhilePaused()
        if let rateLimiter {
            do {
                try await rateLimiter.acquire()
            } catch {
                throw .cancelled
            }
            // A 429 may have come in while this waited for its permit.
            try refuseWhilePaused()
        }
        do throws(BrokerError) {
            let value = try await request()
            pause.withLock { $0.answered() }
            return value
        } catch {
            guard case .rateLimited(let retryAfter) = error else {
                if case .cancelled = error {} else { pause.withLock { $0.answered() } }
                throw error
            }
            let now = clock.now()
            let until = pause.withLock { $0.rateLimited(retryAfter: retryAfter, at: now) }
            throw .rateLimited(retryAfter: (until - now).secondsValue)
        }
    }

    private func refuseWhilePaused() throws(BrokerError) {
        if let left = pausedFor {
            throw .rateLimited(retryAfter: left.secondsValue)
        }
    }
}
