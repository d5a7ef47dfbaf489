/// What every demo broker shares: the market's seed and how often it ticks.
public struct DemoBrokerSettings: Sendable, Hashable {
    /// Same seed, same prices, in every process.
    public var seed: UInt64
    /// Time between two market ticks; streams update at most once per tick.
    public var tickInterval: Duration

    public init(seed: UInt64 = 42, tickInterval: Duration = .milliseconds(500)) {
        self.seed = seed
        self.tickInterval = tickInterval
    }

    /// A zero or negative interval would make a stream spin; one millisecond is the fastest tick.
    var effectiveTickInterval: Duration {
        max(tickInterval, .milliseconds(1))
    }
}
