import Locking

/// Exponential backoff with a cap and optional jitter, as a pure function of the attempt number.
public struct BackoffPolicy: Sendable, Hashable {
    public var initial: Duration
    public var multiplier: Double
    public var maximum: Duration
    /// Fraction of the delay randomized away (0 = none). Jitter spreads reconnects of many clients.
    public var jitter: Double
    /// How long a session must have lived for its end to start the backoff afresh. One that ends sooner
    /// (a server that accepts and then drops, or closes on something it dislikes) counts as a failed
    /// attempt, so a broker that keeps dropping young sessions sees ever sparser reconnects.
    public var healthyLifetime: Duration

    public init(
        initial: Duration = .milliseconds(500), multiplier: Double = 2, maximum: Duration = .seconds(30), jitter: Double = 0.2,
        healthyLifetime: Duration = .seconds(60)
    ) {
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = maximum
        self.jitter = jitter
        self.healthyLifetime = healthyLifetime
    }

    /// The delay before reconnect attempt `attempt` (1-based). `unitRandom` in 0..<1 picks the jitter.
    public func delay(attempt: Int, unitRandom: Double = 0) -> Duration {
        let cap = maximum.secondsValue
        // Multiplying step by step (instead of pow) stops at the cap, so a huge attempt count after
        // a long outage costs nothing and cannot overflow to infinity.
        var raw = min(cap, initial.secondsValue)
        var step = 1
        while step < attempt, raw < cap, multiplier > 1 {
            raw = min(cap, raw * multiplier)
            step += 1
        }
        let spread = min(1, max(0, jitter)) * min(1, max(0, unitRandom))
        let jittered = raw * (1 - spread)
        return .milliseconds(Int64((jittered * 1000).rounded()))
    }
}
