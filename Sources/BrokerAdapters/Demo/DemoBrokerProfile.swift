import Domain

/// How one fake broker behaves: how slow it answers, how its prices lean and how reliable it is.
public struct DemoBrokerProfile: Sendable, Hashable {
    public var branding: ServiceBranding
    /// How long `quotes(for:)` takes to answer.
    public var latency: Duration
    /// Relative lean of this broker's prices, e.g. 0.0004 quotes 4 basis points high, so brokers
    /// visibly disagree a little.
    public var priceBias: Double
    /// Bid/ask spread as a fraction of the last price (never under one cent).
    public var spread: Double
    /// How long the broker's feed stays up and then down (see `DemoOutageSchedule`); nil for a broker
    /// whose feed never fails.
    public var outages: DemoOutageSchedule.Plan?
    /// Symbols this broker answers with "unknown symbol", in request/response and in the stream.
    public var rejects: Set<String>

    public init(
        branding: ServiceBranding, latency: Duration, priceBias: Double, spread: Double,
        outages: DemoOutageSchedule.Plan? = nil, rejects: Set<String> = []
    ) {
        self.branding = branding
        self.latency = latency
        self.priceBias = priceBias
        self.spread = spread
        self.outages = outages
        self.rejects = rejects
    }

    public var isFlaky: Bool { outages != nil }

    /// Fast, tight, and the reference price.
    public static let alpha = DemoBrokerProfile(
        branding: DemoBrokerCatalog.alpha, latency: .milliseconds(40), priceBias: 0, spread: 0.0002
    )

    /// Slower and quotes a touch high.
    public static let beta = DemoBrokerProfile(
        branding: DemoBrokerCatalog.beta, latency: .milliseconds(120), priceBias: 0.0004, spread: 0.0005
    )

    /// The flaky one: slow, a touch low, wide spread; its feed is up for 30–80 ticks (15–40 s at the
    /// default 500 ms, so the first outage comes within a minute), then down for 24–40 ticks (12–20 s,
    /// longer than the demo's 5 s stale threshold), so `reconnecting` and the stale mark are seen. It
    /// rejects `DemoBrokerCatalog.flakyRejects` ("ZZZZ", "XXX", "TEST") so per-row errors show.
    public static let gamma = DemoBrokerProfile(
        branding: DemoBrokerCatalog.gamma, latency: .milliseconds(250), priceBias: -0.0003, spread: 0.0010,
        outages: DemoOutageSchedule.Plan(upTicks: 30...80, downTicks: 24...40), rejects: DemoBrokerCatalog.flakyRejects
    )

    public static let all: [DemoBrokerProfile] = [alpha, beta, gamma]
}
