/// How one broker without a stream is polled: how often, how fast its API lets us ask, and how many
/// symbols one request may carry. The composition root fills it from the config (`pollIntervalSeconds`)
/// and the provider's documented limits (e.g. Tradier 120/min, its sandbox 60/min, Alpaca 200/min,
/// Finnhub 60/min, Polygon free tier 5/min; Finnhub and Polygon take one symbol per request).
public struct PollingSettings: Sendable, Hashable {
    /// The pause between the end of one polling cycle and the start of the next.
    public var interval: Duration
    /// The provider's documented request limit per minute, for every request of the broker together (its
    /// `BrokerRequestGate`, which the start-up snapshot and the poller share).
    public var requestsPerMinute: Int
    /// How many symbols one `quotes(for:)` call may carry; 1 for APIs that quote one symbol per request.
    public var maxSymbolsPerRequest: Int
    /// Requests that may go out back to back after a quiet spell, still within `requestsPerMinute`.
    public var burst: Int
    /// Consecutive failed requests (5xx, network, bad body) after which the session gives up and the hub
    /// reconnects with its own backoff, showing "reconnecting N".
    public var maxConsecutiveFailures: Int
    /// The first wait after a failed request or a 429 without Retry-After; doubles per failure. The gate's
    /// pause after such a 429 uses the same numbers.
    public var backoffInitial: Duration
    public var backoffMaximum: Duration

    /// Shorter intervals would only spend the provider's request budget on unchanged REST quotes.
    public static let minimumInterval = Duration.seconds(1)

    /// Out-of-range values are clamped (interval at least `minimumInterval`, counts at least 1, burst at
    /// most the per-minute limit) so no setting can produce a hot loop. The default burst is a tenth of
    /// the per-minute limit, between 1 and 5.
    public init(
        interval: Duration,
        requestsPerMinute: Int,
        maxSymbolsPerRequest: Int,
        burst: Int? = nil,
        maxConsecutiveFailures: Int = 3,
        backoffInitial: Duration = .seconds(1),
        backoffMaximum: Duration = .seconds(60)
    ) {
        let perMinute = max(1, requestsPerMinute)
        self.interval = max(Self.minimumInterval, interval)
        self.requestsPerMinute = perMinute
        self.maxSymbolsPerRequest = max(1, maxSymbolsPerRequest)
        self.burst = min(perMinute, max(1, burst ?? min(5, perMinute / 10)))
        self.maxConsecutiveFailures = max(1, maxConsecutiveFailures)
        self.backoffInitial = max(.milliseconds(1), backoffInitial)
        self.backoffMaximum = max(self.backoffInitial, backoffMaximum)
    }

    /// The same settings with every field back in range, for values mutated after `init`.
    var clamped: PollingSettings {
        PollingSettings(
            interval: interval, requestsPerMinute: requestsPerMinute, maxSymbolsPerRequest: maxSymbolsPerRequest,
            burst: burst, maxConsecutiveFailures: maxConsecutiveFailures,
            backoffInitial: backoffInitial, backoffMaximum: backoffMaximum
        )
    }

    /// The wait before retry `attempt` (1-based): `backoffInitial` doubled per attempt, capped.
    /// No jitter: one client per broker cannot stampede, and the hub jitters its reconnects.
    public func backoff(attempt: Int) -> Duration {
        var delay = backoffInitial
        var step = 1
        // Doubling step by step stops at the cap, so a long outage cannot overflow.
        while step < attempt, delay < backoffMaximum {
            delay = min(backoffMaximum, delay * 2)
            step += 1
        }
        return min(backoffMaximum, delay)
    }
}
