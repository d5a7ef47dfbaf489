import Domain

/// Turns any `QuoteService` into a `StreamingQuoteService` by polling `quotes(for:)` for the symbols the
/// hub currently demands, so request/response brokers feed the hub like streaming ones. Each session
/// polls only its subscribed symbols, in batches of `maxSymbolsPerRequest`, one rate-limiter permit per
/// `quotes(for:)` call (so `n` symbols at one symbol per request take `n` permits), then waits `interval`.
///
/// How a session ends, which is what the hub's reconnect logic reads:
/// - 429: waits Retry-After (or a backoff) and goes on; not a disconnect.
/// - 5xx, network, bad body: backs off within the session; after `maxConsecutiveFailures` in a row the
///   stream throws the last error and the hub reconnects ("reconnecting N").
/// - Unauthorized and other permanent errors: the stream throws at once and the hub stops retrying.
/// - `close()` finishes the stream without an error.
public struct PollingQuoteStream: StreamingQuoteService {
    public var isPolled: Bool { true }
    public let branding: ServiceBranding
    public let settings: PollingSettings
    /// Shared by every session this opens, so a reconnect cannot double the request rate.
    public let rateLimiter: RequestRateLimiter
    private let service: any QuoteService
    private let clock: any Clock<Duration>

    /// Polls `service` with a rate limiter of its own, sized from `settings`.
    public init(service: any QuoteService, settings: PollingSettings, clock: any Clock<Duration> = ContinuousClock()) {
        let settings = settings.clamped
        self.init(
            service: service, settings: settings,
            rateLimiter: RequestRateLimiter(requestsPerMinute: settings.requestsPerMinute, burst: settings.burst, clock: clock),
            clock: clock
        )
    }

    /// Polls `service` through `rateLimiter`, e.g. one the broker's account requests share.
    /// The limiter's rate, not `settings.requestsPerMinute`, then bounds the requests.
    public init(
        service: any QuoteService, settings: PollingSettings, rateLimiter: RequestRateLimiter,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.branding = service.branding
        self.settings = settings.clamped
        self.rateLimiter = rateLimiter
        self.service = service
        self.clock = clock
    }

    /// Never fails: nothing is asked of the broker until a symbol is subscribed, and the first answer
    /// tells whether the credentials work (`.live`) or not (the stream throws).
    public func openSession() async throws(BrokerError) -> any QuoteStreamSession {
        PollingQuoteStreamSession.open(service: service, settings: settings, rateLimiter: rateLimiter, clock: ElapsedClock(clock))
    }
}
