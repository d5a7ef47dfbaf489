import Domain
import Foundation

/// Turns any `QuoteService` into a `StreamingQuoteService` by polling `quotes(for:)` for the symbols the
/// hub currently demands, so request/response brokers feed the hub like streaming ones. Each session
/// polls only its subscribed symbols, in batches of `maxSymbolsPerRequest`, then waits `interval`. With a
/// `rateLimiter`, each `quotes(for:)` call takes one permit (so `n` symbols at one symbol per request take
/// `n`); without one, the service paces its own requests through its broker's `BrokerRequestGate`, which
/// every other caller of that broker shares too.
///
/// How a session ends, which is what the hub's reconnect logic reads:
/// - 429: emits `.retrying` (the footer says "rate limited, retry in Ns"), waits Retry-After (or a
///   backoff) and goes on; not a disconnect.
/// - 5xx, network, a body that cannot be read: emits `.retrying` ("retrying: server error 500") and backs
///   off within the session; after `maxConsecutiveFailures` in a row the stream throws the last error and
///   the hub reconnects ("reconnecting N").
/// - Unauthorized and other permanent errors: the stream throws at once and the hub stops retrying.
/// - `close()` finishes the stream without an error.
public struct PollingQuoteStream: StreamingQuoteService {
    public var isPolled: Bool { true }
    public let branding: ServiceBranding
    public let settings: PollingSettings
    /// Shared by every session this opens, so a reconnect cannot double the request rate; nil when the
    /// service paces its own requests.
    public let rateLimiter: RequestRateLimiter?
    private let service: any QuoteService
    private let clock: any Clock<Duration>
    private let wallClock: @Sendable () -> Date

    /// Polls `service` with a rate limiter of its own, sized from `settings`.
    /// `wallClock` dates the times `.retrying` names; tests inject it with the clock.
    public init(
        service: any QuoteService, settings: PollingSettings, clock: any Clock<Duration> = ContinuousClock(),
        wallClock: @escaping @Sendable () -> Date = Date.init
    ) {
        let settings = settings.clamped
        self.init(
            service: service, settings: settings,
            rateLimiter: RequestRateLimiter(requestsPerMinute: settings.requestsPerMinute, burst: settings.burst, clock: clock),
            clock: clock, wallClock: wallClock
        )
    }

    /// Polls `service` through `rateLimiter`, whose rate, not `settings.requestsPerMinute`, then bounds
    /// the requests; nil for a service that paces itself (a broker built with its `BrokerRequestGate`).
    public init(
        service: any QuoteService, settings: PollingSettings, rateLimiter: RequestRateLimiter?,
        clock: any Clock<Duration> = ContinuousClock(), wallClock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.branding = service.branding
        self.settings = settings.clamped
        self.rateLimiter = rateLimiter
        self.service = service
        self.clock = clock
        self.wallClock = wallClock
    }

    /// Never fails: nothing is asked of the broker until a symbol is subscribed, and the first answer
    /// tells whether the credentials work (`.live`) or not (the stream throws).
    public func openSession() async throws(BrokerError) -> any QuoteStreamSession {
        PollingQuoteStreamSession.open(
            service: service, settings: settings, rateLimiter: rateLimiter, clock: ElapsedClock(clock), wallClock: wallClock())
    }
}
